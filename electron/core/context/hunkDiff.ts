import { diffLines } from 'diff';

/** A changed block of a line diff, without context: 1-based first lines, counts may be 0. */
export interface DiffBlock {
  oldFirst: number;
  oldCount: number;
  newFirst: number;
  newCount: number;
}

type Op = { type: '=' | '-' | '+'; text: string };

function ops(before: string, after: string): Op[] {
  const out: Op[] = [];
  for (const part of diffLines(before, after)) {
    const type = part.added ? '+' : part.removed ? '-' : '=';
    for (const text of part.value.split(/(?<=\n)/)) if (text !== '') out.push({ type, text });
  }
  return out;
}

/** The end (exclusive) of the run of `type` ops starting at `start`. */
function runEnd(list: Op[], start: number, type: Op['type']): number {
  let end = start;
  while (list[end]?.type === type) end++;
  return end;
}

/** Whether the change block holding `index` is made of `type` ops only (a pure deletion or insertion). */
function pureBlockAt(list: Op[], index: number, type: Op['type']): boolean {
  if (list[index] === undefined || list[index]?.type === '=') return false;
  let first = index;
  let last = index;
  while (list[first - 1] !== undefined && list[first - 1]?.type !== '=') first--;
  while (list[last + 1] !== undefined && list[last + 1]?.type !== '=') last++;
  return list.slice(first, last + 1).every((op) => op.type === type);
}

/**
 * Slides a run of pure deletions (or insertions) over equal neighbouring lines until it joins another
 * pure run of the same kind, as git's diff does: a deleted function whose blank lines match the next
 * function's is one block, not two. Only which lines count as changed moves (the texts are equal), so
 * the pairing of the unchanged lines stays right. A run never slides into a replacement (an unrelated
 * edit two blank lines away stays its own hunk), and a run that joins nothing stays where it was.
 */
function compact(list: Op[], type: '-' | '+'): void {
  const isChange = (index: number) => list[index] !== undefined && list[index]?.type !== '=';
  const flip = (index: number, to: Op['type']) => ((list[index] as Op).type = to);
  const slide = (from: number, to: number, step: -1 | 1): [number, number] => {
    if (step < 0) {
      flip(from - 1, type);
      flip(to - 1, '=');
    } else {
      flip(from, '=');
      flip(to, type);
    }
    return [from + step, to + step];
  };
  for (let start = 0; start < list.length;) {
    const end = runEnd(list, start, type);
    if (end === start || isChange(start - 1) || isChange(end)) {
      start = Math.max(end, start + 1);
      continue;
    }
    let [from, to] = [start, end];
    while (list[from - 1]?.type === '=' && list[from - 1]?.text === list[to - 1]?.text)
      [from, to] = slide(from, to, -1);
    if (!pureBlockAt(list, from - 1, type)) {
      while (from < start) [from, to] = slide(from, to, 1);
      while (list[to]?.type === '=' && list[to]?.text === list[from]?.text) [from, to] = slide(from, to, 1);
      if (!pureBlockAt(list, to, type)) while (from > start) [from, to] = slide(from, to, -1);
    }
    start = Math.max(runEnd(list, start, type), start + 1);
  }
}

/** The changed blocks of a line diff, adjacent changes merged, pure runs slid together as git does. */
export function diffBlocks(before: string, after: string): DiffBlock[] {
  const list = ops(before, after);
  compact(list, '-');
  compact(list, '+');
  const blocks: DiffBlock[] = [];
  let oldLine = 1;
  let newLine = 1;
  let open: DiffBlock | null = null;
  for (const op of list) {
    if (op.type === '=') {
      open = null;
      oldLine++;
      newLine++;
      continue;
    }
    if (!open) {
      open = { oldFirst: oldLine, oldCount: 0, newFirst: newLine, newCount: 0 };
      blocks.push(open);
    }
    if (op.type === '-') {
      open.oldCount++;
      oldLine++;
    } else {
      open.newCount++;
      newLine++;
    }
  }
  return blocks;
}
