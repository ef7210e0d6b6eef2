import { noOpBlock } from '../searchBlocks';
import { formatDiff, hunkHeader, parseDiff } from './diffSections';
import { notApplicable, type SpoilInput, type SpoilResult } from './spoil';

/**
 * `no-op`: an answer that changes nothing, in the answer's own format — the files as shown (whole-file),
 * a block whose search equals its replace, a diff of context lines only.
 */
export function noOp(input: SpoilInput): SpoilResult {
  const { answer, files } = input;
  const evidence = { kind: 'no-op' as const };
  if (answer.format === 'whole-file') {
    const edits = answer.edits.flatMap((edit) => {
      const view = files.get(edit.path);
      return view?.whole ? [{ path: edit.path, content: view.content }] : [];
    });
    return edits.length > 0
      ? { ok: true, answer: { format: 'whole-file', edits }, evidence }
      : notApplicable('no file of the answer is shown whole, so none can be given back unchanged');
  }
  if (answer.format === 'search-replace') {
    const block = answer.edits
      .map((edit) => files.get(edit.path) && noOpBlock(edit.path, files.get(edit.path) ?? { whole: true, content: '' }))
      .find((found) => found);
    return block
      ? {
          ok: true,
          answer: {
            format: 'search-replace',
            edits: [{ path: block.stats.path, search: block.search, replace: block.search }],
          },
          evidence,
        }
      : notApplicable('no file of the answer is shown, so no block can be copied from it');
  }
  const diff = parseDiff(answer.diff);
  for (const section of diff.sections) {
    const hunk = section.hunks.find((entry) => entry.oldCount > 0);
    if (!hunk) continue;
    // The hunk's old side, every line of it as context: the diff of a file against itself.
    const lines = hunk.lines
      .filter((line, at) => !line.startsWith('+') && !(line.startsWith('\\') && hunk.lines[at - 1]?.startsWith('+')))
      .map((line) => (line.startsWith('-') ? ` ${line.slice(1)}` : line));
    const context = { ...hunk, newStart: hunk.oldStart, newCount: hunk.oldCount, lines };
    return {
      ok: true,
      answer: {
        format: 'unified-diff',
        diff: formatDiff({
          preamble: [],
          sections: [{ ...section, hunks: [{ ...context, header: hunkHeader(context) }] }],
        }),
      },
      evidence,
    };
  }
  return notApplicable('the diff has no hunk with lines of the file to give as context');
}
