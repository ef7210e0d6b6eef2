import type { GoldFile, GoldHunk, PatchLine } from './goldPatch';

/** A file's text as lines that keep their endings, so joining them gives the text back byte for byte. */
export function splitLines(text: string): PatchLine[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** Where each hunk sits in the current file: `at` is the 0-based line its `before` side starts on. */
export interface LocatedHunk {
  hunk: GoldHunk;
  at: number;
}

/** What the current file is with respect to the gold patch. */
export type GoldFileState =
  | { kind: 'pending'; before: string | null; after: string | null; located: LocatedHunk[] }
  | { kind: 'applied' }
  | { kind: 'mismatch'; reason: string };

function matchesAt(lines: readonly PatchLine[], run: readonly PatchLine[], at: number): boolean {
  if (at < 0 || at + run.length > lines.length) return false;
  return run.every((line, offset) => lines[at + offset] === line);
}

/**
 * Finds every hunk's run of lines in order, as `patch` does: at the stated line first, then nearer
 * lines before farther ones, each hunk after the previous one, the drift carried to the next hunk.
 * `exact` says whether every hunk sat exactly where its header said.
 */
function locate(
  lines: readonly PatchLine[],
  hunks: readonly GoldHunk[],
  side: 'before' | 'after',
): { located: LocatedHunk[]; exact: boolean } | null {
  const located: LocatedHunk[] = [];
  let drift = 0;
  let floor = 0;
  let exact = true;
  for (const hunk of hunks) {
    const run = hunk[side];
    const stated = (side === 'before' ? hunk.oldIndex : hunk.newIndex) + drift;
    let found = -1;
    for (let distance = 0; found < 0 && (stated - distance >= floor || stated + distance <= lines.length); distance++) {
      if (stated - distance >= floor && matchesAt(lines, run, stated - distance)) found = stated - distance;
      else if (distance > 0 && stated + distance >= floor && matchesAt(lines, run, stated + distance))
        found = stated + distance;
    }
    if (found < 0) return null;
    if (found !== stated) exact = false;
    drift = found - (side === 'before' ? hunk.oldIndex : hunk.newIndex);
    floor = found + run.length;
    located.push({ hunk, at: found });
  }
  return { located, exact };
}

/** The text after applying located hunks (in order) to `lines`. */
export function applyLocated(lines: readonly PatchLine[], located: readonly LocatedHunk[]): string {
  const out: PatchLine[] = [];
  let cursor = 0;
  for (const { hunk, at } of located) {
    out.push(...lines.slice(cursor, at), ...hunk.after);
    cursor = at + hunk.before.length;
  }
  out.push(...lines.slice(cursor));
  return out.join('');
}

/**
 * Decides from the current content alone (null: the file does not exist) whether the gold change is
 * still to be made, already made, or neither. When both directions fit, the one whose hunks sit exactly
 * at their stated lines wins, and a tie counts as pending.
 */
export function goldFileState(file: GoldFile, current: string | null): GoldFileState {
  if (file.kind === 'create') {
    const content = file.hunks.flatMap((hunk) => hunk.after).join('');
    if (current === null) return { kind: 'pending', before: null, after: content, located: [] };
    if (current === content) return { kind: 'applied' };
    return { kind: 'mismatch', reason: `${file.path} already exists, with other content than the gold patch creates` };
  }
  if (current === null) {
    return file.kind === 'delete' ? { kind: 'applied' } : { kind: 'mismatch', reason: `${file.path} does not exist` };
  }
  const lines = splitLines(current);
  const forward = locate(lines, file.hunks, 'before');
  if (file.kind === 'delete') {
    if (forward && applyLocated(lines, forward.located) === '')
      return { kind: 'pending', before: current, after: null, located: forward.located };
    return { kind: 'mismatch', reason: `${file.path} differs from the file the gold patch deletes` };
  }
  const reverse = locate(
    lines,
    file.hunks.map((hunk) => ({
      ...hunk,
      before: hunk.after,
      after: hunk.before,
      oldIndex: hunk.newIndex,
      newIndex: hunk.oldIndex,
    })),
    'before',
  );
  if (forward && (!reverse || forward.exact || !reverse.exact)) {
    return { kind: 'pending', before: current, after: applyLocated(lines, forward.located), located: forward.located };
  }
  if (reverse) return { kind: 'applied' };
  return {
    kind: 'mismatch',
    reason: `the gold patch's hunks for ${file.path} match neither the file before nor after the fix`,
  };
}
