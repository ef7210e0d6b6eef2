/** camelCase from words separated by spaces, hyphens or underscores. */
export function toCamelCase(text) {
  const parts = text.split(/[\s_-]/);
  return parts
    .map((part, index) => (index === 0 ? part : part[0].toUpperCase() + part.slice(1).toLowerCase()))
    .join('');
}

/** kebab-case from camelCase or separated words. */
export function toKebabCase(text) {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((part) => part.toLowerCase())
    .join('-');
}
