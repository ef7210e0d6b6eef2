/** Splits items into arrays of `size` items; the last one may be shorter. */
export function chunk(items, size) {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive whole number, not ${size}`);
  const chunks = [];
  for (let start = 0; start < items.length; start += size) {
    chunks.push(items.slice(start, start + size));
  }
  return chunks;
}

/** The items in `items` that are not in `other`. */
export function difference(items, other) {
  const excluded = new Set(other);
  return items.filter((item) => !excluded.has(item));
}
