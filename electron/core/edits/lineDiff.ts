import { diffArrays } from 'diff';

/** The lines of a text without their endings (LF or CRLF); a final newline makes no empty last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((line) => line.replace(/\r$/, ''));
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** One place where two versions differ: `removed` old lines from `oldStart`, `added` new lines from `newStart` (0-based). */
export interface ChangeBlock {
  oldStart: number;
  removed: number;
  newStart: number;
  added: number;
}

/** Past this many differing lines the two versions are one block: they have too little in common to align. */
const MAX_EDIT_LENGTH = 4000;

/**
 * Where `after` differs from `before`, line by line, ignoring trailing whitespace (models drop it).
 * The common head and tail are cut first, so a small change to a 5,000-line file aligns only its middle.
 */
export function changeBlocks(before: readonly string[], after: readonly string[]): ChangeBlock[] {
  const oldKeys = before.map((line) => line.trimEnd());
  const newKeys = after.map((line) => line.trimEnd());
  let head = 0;
  while (head < oldKeys.length && head < newKeys.length && oldKeys[head] === newKeys[head]) head++;
  let tail = 0;
  while (
    tail < oldKeys.length - head &&
    tail < newKeys.length - head &&
    oldKeys[oldKeys.length - 1 - tail] === newKeys[newKeys.length - 1 - tail]
  )
    tail++;
  const oldMiddle = oldKeys.slice(head, oldKeys.length - tail);
  const newMiddle = newKeys.slice(head, newKeys.length - tail);
  if (oldMiddle.length === 0 && newMiddle.length === 0) return [];
  const parts = diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return [{ oldStart: head, removed: oldMiddle.length, newStart: head, added: newMiddle.length }];
  const blocks: ChangeBlock[] = [];
  let oldAt = head;
  let newAt = head;
  let open: ChangeBlock | null = null;
  for (const part of parts) {
    const count = part.value.length;
    if (!part.added && !part.removed) {
      if (open) blocks.push(open);
      open = null;
      oldAt += count;
      newAt += count;
      continue;
    }
    open ??= { oldStart: oldAt, removed: 0, newStart: newAt, added: 0 };
    if (part.removed) {
      open.removed += count;
      oldAt += count;
    } else {
      open.added += count;
      newAt += count;
    }
  }
  if (open) blocks.push(open);
  return blocks;
}

/** `line 7` or `lines 7-12` (1-based, ASCII hyphen): how every refusal names a place in a file. */
export function lineRange(first: number, last: number): string {
  return first === last ? `line ${first}` : `lines ${first}-${last}`;
}
