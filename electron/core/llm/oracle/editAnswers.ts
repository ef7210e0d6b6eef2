import { LIMITS } from '../../../../shared/schemas/agents/bounds';
import type { EditFormatName } from '../../workspace/types';
import { goldFileState, splitLines, type LocatedHunk } from './applyGold';
import type { GoldFile, PatchLine } from './goldPatch';

/** A file as the writer's context shows it; `truncated`: only this prefix of it is shown. */
export interface VisibleFile {
  content: string;
  truncated: boolean;
}

/** How a search block had to grow beyond its hunk to be unique in the file it is applied to. */
export interface BlockStats {
  path: string;
  hunkLines: number;
  addedContextLines: number;
}

export type EditAnswer =
  | { ok: true; proposal: Record<string, unknown>; blocks: BlockStats[] }
  | { ok: false; reason: string };

const fail = (reason: string): EditAnswer => ({ ok: false, reason });

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

/** Whole files: each gold file's content after the fix; one already fixed is given as it is. */
function wholeFile(files: readonly GoldFile[], visible: ReadonlyMap<string, VisibleFile>): EditAnswer {
  const edits: { path: string; content: string }[] = [];
  for (const file of files) {
    if (file.kind === 'delete') return fail(`whole-file cannot delete ${file.path}: the format has no deletion`);
    const shown = visible.get(file.path);
    if (!shown && file.kind === 'modify') return fail(`${file.path} is not in the writer's context, so its whole new content cannot be written`);
    if (shown?.truncated) return fail(`${file.path} is cut short in the writer's context (${shown.content.length} characters shown), so its whole new content cannot be written`);
    const state = goldFileState(file, shown?.content ?? null);
    if (state.kind === 'mismatch') return fail(state.reason);
    const content = state.kind === 'pending' ? (state.after ?? '') : (shown?.content ?? '');
    if (content.length > LIMITS.fileContent) return fail(`${file.path} after the fix is ${content.length} characters, over the whole-file bound of ${LIMITS.fileContent}`);
    edits.push({ path: file.path, content });
  }
  if (edits.length > LIMITS.artifacts) return fail(`the fix writes ${edits.length} files, over the whole-file bound of ${LIMITS.artifacts}`);
  edits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, proposal: { edits }, blocks: [] };
}

interface Block {
  search: string;
  replace: string;
  stats: BlockStats;
}

/**
 * One block per hunk, applied in order: each `search` is the hunk's old lines, grown by one line below,
 * then one above, and so on, until it occurs exactly once in the file as the earlier blocks left it.
 */
function blocksFor(path: string, current: string, located: readonly LocatedHunk[]): Block[] {
  const blocks: Block[] = [];
  let lines: PatchLine[] = splitLines(current);
  let shift = 0;
  for (const { hunk, at } of located) {
    const start = at + shift;
    const next = [...lines.slice(0, start), ...hunk.after, ...lines.slice(start + hunk.before.length)];
    const text = lines.join('');
    const blockAt = (up: number, down: number) => ({
      search: lines.slice(start - up, start + hunk.before.length + down).join(''),
      replace: next.slice(start - up, start + hunk.after.length + down).join(''),
    });
    let up = 0;
    let down = 0;
    let block = blockAt(up, down);
    // An empty file is the one place an empty search means "this file"; anywhere else it creates.
    for (let grow = 0; text !== '' && (block.search === '' || countOccurrences(text, block.search) !== 1); grow++) {
      const canDown = start + hunk.before.length + down < lines.length;
      const canUp = start - up > 0;
      if (!canDown && !canUp) break;
      if (canDown && (grow % 2 === 0 || !canUp)) down++;
      else up++;
      block = blockAt(up, down);
    }
    blocks.push({ ...block, stats: { path, hunkLines: hunk.before.length, addedContextLines: up + down } });
    lines = next;
    shift += hunk.after.length - hunk.before.length;
  }
  return blocks;
}

/** The shortest run of whole lines from the top that occurs once: a block that changes nothing. */
function noOpBlock(path: string, content: string): Block | null {
  const lines = splitLines(content);
  for (let end = 1; end <= lines.length; end++) {
    const search = lines.slice(0, end).join('');
    if (countOccurrences(content, search) === 1) return { search, replace: search, stats: { path, hunkLines: 0, addedContextLines: end } };
  }
  return null;
}

function searchReplace(files: readonly GoldFile[], visible: ReadonlyMap<string, VisibleFile>): EditAnswer {
  const blocks: Block[] = [];
  for (const file of files) {
    if (file.kind === 'delete') return fail(`search-replace cannot delete ${file.path}: the format has no deletion`);
    const shown = visible.get(file.path);
    if (!shown && file.kind === 'modify') return fail(`${file.path} is not in the writer's context, so no search block can be copied from it`);
    const state = goldFileState(file, shown?.content ?? null);
    if (state.kind === 'mismatch') {
      return fail(shown?.truncated ? `the gold hunks of ${file.path} lie beyond the ${shown.content.length} characters of it the writer's context shows` : state.reason);
    }
    if (state.kind === 'applied') continue;
    if (state.before === null) blocks.push({ search: '', replace: state.after ?? '', stats: { path: file.path, hunkLines: 0, addedContextLines: 0 } });
    else blocks.push(...blocksFor(file.path, state.before, state.located));
  }
  if (blocks.length === 0) {
    // Everything is already fixed; the format needs one edit, so the answer is one that changes nothing.
    const shown = files.map((file) => ({ file, view: visible.get(file.path) })).find(({ view }) => view && view.content !== '');
    const block = shown?.view ? noOpBlock(shown.file.path, shown.view.content) : null;
    if (!block) return fail('the gold change is already made and no file in the context can carry an edit that changes nothing');
    blocks.push(block);
  }
  const pathOf = (block: Block) => block.stats.path;
  const edits = blocks.map((block) => ({ path: pathOf(block), search: block.search, replace: block.replace }));
  if (edits.length > LIMITS.artifacts * 2) return fail(`the fix needs ${edits.length} search blocks, over the search-replace bound of ${LIMITS.artifacts * 2}`);
  const tooLarge = edits.find((edit) => edit.search.length > LIMITS.fileContent || edit.replace.length > LIMITS.fileContent);
  if (tooLarge) return fail(`a search block of ${tooLarge.path} is over the search-replace bound of ${LIMITS.fileContent} characters`);
  return { ok: true, proposal: { edits }, blocks: blocks.map((block) => block.stats) };
}

/**
 * The gold patch's own sections for the files still to change. A file the context shows already fixed
 * is left out; a file it does not show is assumed unfixed (the diff carries its own context lines).
 */
function unifiedDiff(files: readonly GoldFile[], visible: ReadonlyMap<string, VisibleFile>): EditAnswer {
  const sections: string[] = [];
  for (const file of files) {
    const shown = visible.get(file.path);
    if (shown) {
      const state = goldFileState(file, shown.content);
      if (state.kind === 'applied') continue;
      if (state.kind === 'mismatch' && !shown.truncated) return fail(state.reason);
    }
    sections.push(file.text.endsWith('\n') ? file.text : `${file.text}\n`);
  }
  const first = files[0];
  if (sections.length === 0 && first) sections.push(`--- a/${first.path}\n+++ b/${first.path}\n`);
  const diff = sections.join('');
  if (diff.length > LIMITS.fileContent) return fail(`the diff is ${diff.length} characters, over the unified-diff bound of ${LIMITS.fileContent}`);
  return { ok: true, proposal: { diff }, blocks: [] };
}

/** The writer's answer in `format` for the gold files of its task, from what its context shows. */
export function editAnswer(format: EditFormatName, files: readonly GoldFile[], visible: ReadonlyMap<string, VisibleFile>): EditAnswer {
  if (files.length === 0) return fail('the task names none of the files the gold patch changes');
  switch (format) {
    case 'whole-file':
      return wholeFile(files, visible);
    case 'search-replace':
      return searchReplace(files, visible);
    case 'unified-diff':
      return unifiedDiff(files, visible);
    default:
      return format satisfies never;
  }
}
