/** Arithmetic mean of a non-empty list of numbers. */
export function mean(values) {
  if (values.length === 0) throw new RangeError('mean() of an empty list');
  return values.reduce((total, value) => total + value, 0) / values.length;
}

/** Middle value of a non-empty list of numbers (the mean of the two middle values for an even count). */
export function median(values) {
  if (values.length === 0) throw new RangeError('median() of an empty list');
  return mean(values);
}
