/**
 * One-line forms of a goal or title: commit subjects, task titles and listings must stay short, never
 * split a word, and mark what they leave out (`…`) rather than drop it silently.
 */

export const ELLIPSIS = '…';

/** Git's convention for a commit subject. */
export const SUBJECT_MAX = 72;

/** The first line with text, and whether any other line with text follows it. */
export function firstLine(text: string): { line: string; more: boolean } {
  const lines = text.split(/\r?\n|\r/).map((line) => line.trim());
  const index = lines.findIndex((line) => line !== '');
  if (index === -1) return { line: '', more: false };
  return { line: lines[index] ?? '', more: lines.slice(index + 1).some((line) => line !== '') };
}

/**
 * `text` on one line (whitespace runs become one space), at most `max` characters: cut at the last
 * word boundary that fits, then `…`. A first word longer than a third of the room is cut inside it,
 * so a path or URL still shows something.
 */
export function shortenAtWord(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  if (max < 2) return ELLIPSIS.slice(0, Math.max(0, max));
  const room = flat.slice(0, max - 1);
  const boundary = flat[max - 1] === ' ' ? room.length : room.lastIndexOf(' ');
  const cut = boundary > (max - 1) / 3 ? room.slice(0, boundary) : room;
  // No half of a surrogate pair, nor a dangling comma or colon, before the ellipsis.
  return `${cut.replace(/[\uD800-\uDBFF]$/, '').replace(/[\s,;:–—-]+$/, '')}${ELLIPSIS}`;
}

/** The first line, at most `max` characters; `…` marks a cut line and also lines that follow it. */
export function headline(text: string, max: number): string {
  const { line, more } = firstLine(text);
  const short = shortenAtWord(line, max);
  if (!more || short.endsWith(ELLIPSIS)) return short;
  const room = shortenAtWord(line, max - 2);
  return room.endsWith(ELLIPSIS) ? room : `${room} ${ELLIPSIS}`;
}

/**
 * A goal on one line for a header or a list whose width CSS cuts: its first line, with ` …` when more
 * lines follow, so a multi-line goal never looks whole when it is not (the whole goal goes in a title).
 */
export function goalLine(goal: string): string {
  const { line, more } = firstLine(goal);
  return more ? `${line} ${ELLIPSIS}` : line;
}
