/** Structural equality of JSON-like values. */
export function deepEqual(a, b) {
  if (Object.is(a, b) || a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  const keysA = Object.keys(a);
  const keysB = new Set(Object.keys(b));
  if (keysA.length !== keysB.size) return false;
  return keysA.every((key) => keysB.has(key) && deepEqual(a[key], b[key]));
}
