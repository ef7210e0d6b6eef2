/**
 * The license text a corpus keeps beside a repository's bundle (`<repo>.LICENSE`). A dual-licensed
 * crate (the Rust convention: LICENSE-MIT and LICENSE-APACHE, "MIT OR Apache-2.0") keeps both texts,
 * so the file says everything the task's `license` field names.
 */

const SINGLE = ['LICENSE', 'LICENSE.md', 'LICENSE.txt', 'LICENCE', 'license', 'license.md', 'COPYING'];
const DUAL = ['LICENSE-MIT', 'LICENSE-APACHE'];

/** `read` gives a file's text on the repository's branch, or null when it has none. */
export function licenseText(read: (name: string) => string | null): string | null {
  const single = SINGLE.map(read).find((text) => text !== null);
  if (single !== undefined && single !== null) return single;
  const parts = DUAL.map((name) => ({ name, text: read(name) })).filter(
    (part): part is { name: string; text: string } => part.text !== null,
  );
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0]?.text ?? null;
  return parts.map((part) => `==> ${part.name} <==\n${part.text.trimEnd()}\n`).join('\n');
}
