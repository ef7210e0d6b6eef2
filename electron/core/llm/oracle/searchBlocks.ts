import type { LocatedHunk } from './applyGold';
import { splitLines } from './applyGold';
import type { GoldFile, GoldHunk, PatchLine } from './goldPatch';
import type { VisibleFile, VisibleSegment } from './visibleFile';

/** How a search block had to grow beyond its hunk to be unique in the file it is applied to. */
export interface BlockStats {
  path: string;
  hunkLines: number;
  addedContextLines: number;
}

export interface Block {
  search: string;
  replace: string;
  stats: BlockStats;
}

export function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** The hunk without the context lines it begins and ends with: the lines it really changes. */
export function changedCore(hunk: GoldHunk): { lead: number; before: PatchLine[]; after: PatchLine[] } {
  let lead = 0;
  while (lead < hunk.before.length && lead < hunk.after.length && hunk.before[lead] === hunk.after[lead]) lead++;
  let trail = 0;
  while (
    trail < hunk.before.length - lead &&
    trail < hunk.after.length - lead &&
    hunk.before[hunk.before.length - 1 - trail] === hunk.after[hunk.after.length - 1 - trail]
  )
    trail++;
  return {
    lead,
    before: hunk.before.slice(lead, hunk.before.length - trail),
    after: hunk.after.slice(lead, hunk.after.length - trail),
  };
}

/**
 * The block for the changed lines starting at line `start` of `lines`: grown by one line below, then
 * one above, and so on, until the search occurs exactly once in `text` (what the writer can check).
 */
function grownBlock(
  path: string,
  lines: readonly PatchLine[],
  start: number,
  core: { before: PatchLine[]; after: PatchLine[] },
  text: string,
): Block {
  const next = [...lines.slice(0, start), ...core.after, ...lines.slice(start + core.before.length)];
  const blockAt = (up: number, down: number) => ({
    search: lines.slice(start - up, start + core.before.length + down).join(''),
    replace: next.slice(start - up, start + core.after.length + down).join(''),
  });
  let up = 0;
  let down = 0;
  let block = blockAt(up, down);
  // An empty file is the one place an empty search means "this file"; anywhere else it creates.
  for (let grow = 0; text !== '' && (block.search === '' || countOccurrences(text, block.search) !== 1); grow++) {
    const canDown = start + core.before.length + down < lines.length;
    const canUp = start - up > 0;
    if (!canDown && !canUp) break;
    if (canDown && (grow % 2 === 0 || !canUp)) down++;
    else up++;
    block = blockAt(up, down);
  }
  return { ...block, stats: { path, hunkLines: core.before.length, addedContextLines: up + down } };
}

/**
 * One block per hunk of a file shown whole, applied in order: its changed lines, grown until unique in
 * the file as the earlier blocks left it.
 */
export function wholeFileBlocks(path: string, current: string, located: readonly LocatedHunk[]): Block[] {
  const blocks: Block[] = [];
  let lines: PatchLine[] = splitLines(current);
  let shift = 0;
  for (const { hunk, at } of located) {
    const core = changedCore(hunk);
    const start = at + shift + core.lead;
    blocks.push(grownBlock(path, lines, start, core, lines.join('')));
    lines = [...lines.slice(0, start), ...core.after, ...lines.slice(start + core.before.length)];
    shift += core.after.length - core.before.length;
  }
  return blocks;
}

export type PartialBlocks =
  { kind: 'pending'; blocks: Block[] } | { kind: 'applied' } | { kind: 'unreachable'; reason: string };

interface LiveSegment extends VisibleSegment {
  /** Lines the hunks applied so far added (or removed) in this segment. */
  shift: number;
}

/** The place of `run` in the segments nearest the file's line `stated` (0-based, before any hunk). */
function nearestRun(
  segments: readonly LiveSegment[],
  run: readonly PatchLine[],
  stated: number,
): { segment: LiveSegment; at: number } | null {
  let best: { segment: LiveSegment; at: number; distance: number } | null = null;
  for (const segment of segments) {
    for (let at = 0; at + run.length <= segment.lines.length; at++) {
      if (!run.every((line, offset) => segment.lines[at + offset] === line)) continue;
      const distance = Math.abs(segment.start + at - segment.shift - stated);
      if (!best || distance < best.distance) best = { segment, at, distance };
    }
  }
  return best;
}

/**
 * Blocks for a file the context shows only in part. Each hunk's changed lines must lie inside one shown
 * run of lines, and its block grows only within that run; uniqueness can only be checked against what
 * is shown.
 */
export function partialFileBlocks(file: GoldFile, view: Extract<VisibleFile, { whole: false }>): PartialBlocks {
  const segments: LiveSegment[] = view.segments.map((segment) => ({
    start: segment.start,
    lines: [...segment.lines],
    shift: 0,
  }));
  // A NUL between runs: no block can match across the gap between two of them.
  const shownText = () => segments.map((segment) => segment.lines.join('')).join('\0');
  const blocks: Block[] = [];
  let applied = 0;
  for (const hunk of file.hunks) {
    const core = changedCore(hunk);
    // The whole hunk where it is shown, else its changed lines alone (their context may lie outside).
    const whole = nearestRun(segments, hunk.before, hunk.oldIndex);
    const found = whole
      ? { ...whole, at: whole.at + core.lead }
      : nearestRun(segments, core.before, hunk.oldIndex + core.lead);
    if (!found || (!whole && core.before.length === 0)) {
      if (
        nearestRun(segments, hunk.after, hunk.newIndex) ??
        (core.after.length > 0 ? nearestRun(segments, core.after, hunk.newIndex + core.lead) : null)
      ) {
        applied++;
        continue;
      }
      return {
        kind: 'unreachable',
        reason: `the gold hunk at line ${hunk.oldIndex + 1} of ${file.path} is not in what the writer's context shows of it (${view.how})`,
      };
    }
    const { segment, at } = found;
    blocks.push(grownBlock(file.path, segment.lines, at, core, shownText()));
    segment.lines = [...segment.lines.slice(0, at), ...core.after, ...segment.lines.slice(at + core.before.length)];
    segment.shift += core.after.length - core.before.length;
  }
  if (blocks.length > 0 && applied > 0)
    return { kind: 'unreachable', reason: `${file.path} carries only part of the gold change` };
  return blocks.length === 0 ? { kind: 'applied' } : { kind: 'pending', blocks };
}

/** The shortest run of whole lines from the top of what is shown that occurs once: a block that changes nothing. */
export function noOpBlock(path: string, view: VisibleFile): Block | null {
  const lines = view.whole ? splitLines(view.content) : (view.segments[0]?.lines ?? []);
  const text = view.whole ? view.content : view.segments.map((segment) => segment.lines.join('')).join('\0');
  for (let end = 1; end <= lines.length; end++) {
    const search = lines.slice(0, end).join('');
    if (countOccurrences(text, search) === 1)
      return { search, replace: search, stats: { path, hunkLines: 0, addedContextLines: end } };
  }
  return null;
}
