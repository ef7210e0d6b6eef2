import { LIMITS } from '../../../../shared/schemas/agents/bounds';
import type { EditFormatName } from '../../edits/types';
import { goldFileState } from './applyGold';
import type { GoldFile } from './goldPatch';
import { noOpBlock, partialFileBlocks, wholeFileBlocks, type Block, type BlockStats } from './searchBlocks';
import { wholeText, type VisibleFile } from './visibleFile';

export type EditAnswer =
  { ok: true; proposal: Record<string, unknown>; blocks: BlockStats[] } | { ok: false; reason: string };

const fail = (reason: string): EditAnswer => ({ ok: false, reason });

/** Whole files: each gold file's content after the fix; one already fixed is given as it is. */
function wholeFile(files: readonly GoldFile[], visible: ReadonlyMap<string, VisibleFile>): EditAnswer {
  const edits: { path: string; content: string }[] = [];
  for (const file of files) {
    if (file.kind === 'delete') return fail(`whole-file cannot delete ${file.path}: the format has no deletion`);
    const shown = visible.get(file.path);
    if (!shown && file.kind === 'modify')
      return fail(`${file.path} is not in the writer's context, so its whole new content cannot be written`);
    if (shown && !shown.whole)
      return fail(
        `${file.path} is only partly in the writer's context (${shown.how}), so its whole new content cannot be written`,
      );
    const current = wholeText(shown);
    const state = goldFileState(file, current);
    if (state.kind === 'mismatch') return fail(state.reason);
    const content = state.kind === 'pending' ? (state.after ?? '') : (current ?? '');
    if (content.length > LIMITS.fileContent)
      return fail(
        `${file.path} after the fix is ${content.length} characters, over the whole-file bound of ${LIMITS.fileContent}`,
      );
    edits.push({ path: file.path, content });
  }
  if (edits.length > LIMITS.artifacts)
    return fail(`the fix writes ${edits.length} files, over the whole-file bound of ${LIMITS.artifacts}`);
  edits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { ok: true, proposal: { edits }, blocks: [] };
}

function searchReplace(files: readonly GoldFile[], visible: ReadonlyMap<string, VisibleFile>): EditAnswer {
  const blocks: Block[] = [];
  for (const file of files) {
    if (file.kind === 'delete') return fail(`search-replace cannot delete ${file.path}: the format has no deletion`);
    const shown = visible.get(file.path);
    if (!shown && file.kind === 'modify')
      return fail(`${file.path} is not in the writer's context, so no search block can be copied from it`);
    if (shown && !shown.whole) {
      const partial = partialFileBlocks(file, shown);
      if (partial.kind === 'unreachable') return fail(partial.reason);
      if (partial.kind === 'pending') blocks.push(...partial.blocks);
      continue;
    }
    const state = goldFileState(file, wholeText(shown));
    if (state.kind === 'mismatch') return fail(state.reason);
    if (state.kind === 'applied') continue;
    if (state.before === null)
      blocks.push({
        search: '',
        replace: state.after ?? '',
        stats: { path: file.path, hunkLines: 0, addedContextLines: 0 },
      });
    else blocks.push(...wholeFileBlocks(file.path, state.before, state.located));
  }
  if (blocks.length === 0) {
    // Everything is already fixed; the format needs one edit, so the answer is one that changes nothing.
    const block = files
      .map((file) => ({ file, view: visible.get(file.path) }))
      .reduce<Block | null>((found, { file, view }) => found ?? (view ? noOpBlock(file.path, view) : null), null);
    if (!block)
      return fail('the gold change is already made and no file in the context can carry an edit that changes nothing');
    blocks.push(block);
  }
  const edits = blocks.map((block) => ({ path: block.stats.path, search: block.search, replace: block.replace }));
  if (edits.length > LIMITS.artifacts * 2)
    return fail(
      `the fix needs ${edits.length} search blocks, over the search-replace bound of ${LIMITS.artifacts * 2}`,
    );
  const tooLarge = edits.find(
    (edit) => edit.search.length > LIMITS.fileContent || edit.replace.length > LIMITS.fileContent,
  );
  if (tooLarge)
    return fail(
      `a search block of ${tooLarge.path} is over the search-replace bound of ${LIMITS.fileContent} characters`,
    );
  return { ok: true, proposal: { edits }, blocks: blocks.map((block) => block.stats) };
}

/**
 * The gold patch's own sections for the files still to change. A diff copies its context and removed
 * lines from the file, so every hunk's old lines must be in what the context shows (a new file needs
 * nothing); a file the context shows already fixed is left out.
 */
function unifiedDiff(files: readonly GoldFile[], visible: ReadonlyMap<string, VisibleFile>): EditAnswer {
  const sections: string[] = [];
  for (const file of files) {
    const shown = visible.get(file.path);
    if (!shown && file.kind !== 'create')
      return fail(`${file.path} is not in the writer's context, so no diff lines can be copied from it`);
    if (shown?.whole) {
      const state = goldFileState(file, shown.content);
      if (state.kind === 'applied') continue;
      if (state.kind === 'mismatch') return fail(state.reason);
    } else if (shown) {
      if (file.kind === 'delete')
        return fail(
          `${file.path} is only partly in the writer's context (${shown.how}), so a diff removing all of it cannot be written`,
        );
      const partial = partialFileBlocks(file, shown);
      if (partial.kind === 'unreachable') return fail(partial.reason);
      if (partial.kind === 'applied') continue;
    }
    sections.push(file.text.endsWith('\n') ? file.text : `${file.text}\n`);
  }
  const first = files[0];
  if (sections.length === 0 && first) sections.push(`--- a/${first.path}\n+++ b/${first.path}\n`);
  const diff = sections.join('');
  if (diff.length > LIMITS.fileContent)
    return fail(`the diff is ${diff.length} characters, over the unified-diff bound of ${LIMITS.fileContent}`);
  return { ok: true, proposal: { diff }, blocks: [] };
}

/** The writer's answer in `format` for the gold files of its task, from what its context shows. */
export function editAnswer(
  format: EditFormatName,
  files: readonly GoldFile[],
  visible: ReadonlyMap<string, VisibleFile>,
): EditAnswer {
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
