/** Seed 000: over 4000 characters, the first 2500 + "\n...\n" + the last 1000. */
export function truncateReport(text: string): string {
  if (text.length <= 4000) return text;
  return `${text.slice(0, 2500)}\n...\n${text.slice(-1000)}`;
}

/** Seed 004: the last `n` lines (a trailing newline does not count as an empty last line). */
export function lastLines(text: string, n: number): string {
  if (n <= 0) return '';
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let at = body.length;
  for (let count = 0; count < n; count++) {
    const previous = body.lastIndexOf('\n', at - 1);
    if (previous === -1) return body;
    at = previous;
  }
  return body.slice(at + 1);
}
