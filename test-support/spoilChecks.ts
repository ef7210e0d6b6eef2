import { applyPatch, diffArrays, parsePatch } from 'diff';
import { splitLines } from '../electron/core/llm/oracle/applyGold';
import { editAnswer } from '../electron/core/llm/oracle/editAnswers';
import type { FaultKind } from '../electron/core/llm/oracle/faults/faultSettings';
import { seededRandom } from '../electron/core/llm/oracle/faults/random';
import {
  answerOf,
  type SpoilInput,
  type SpoilResult,
  type WriterAnswer,
} from '../electron/core/llm/oracle/faults/spoil';
import type { GoldFile } from '../electron/core/llm/oracle/goldPatch';
import { wholeView, type VisibleFile } from '../electron/core/llm/oracle/visibleFile';
import type { EditFormatName } from '../electron/core/edits/types';

/** A spoiler's input for the gold files shown whole (and any other files, e.g. tests), with the correct answer in `format`. */
export function spoilInput(
  format: EditFormatName,
  gold: readonly GoldFile[],
  shown: Record<string, string>,
  options: { feedback?: string | null; seed?: number; notes?: string[] } = {},
): SpoilInput {
  const files = new Map<string, VisibleFile>(Object.entries(shown).map(([path, text]) => [path, wholeView(text)]));
  const correct = editAnswer(format, gold, files);
  if (!correct.ok) throw new Error(`no correct ${format} answer: ${correct.reason}`);
  const answer = answerOf(format, correct.proposal);
  if (!answer) throw new Error('the oracle answer has no known shape');
  return {
    answer,
    files,
    gold,
    feedback: options.feedback ?? null,
    notes: options.notes ?? [],
    random: seededRandom(options.seed ?? 1, 'test'),
  };
}

/** The files after an answer, applied literally (exact search blocks, strict hunks): what the answer says, nothing repaired. */
export function applyLiterally(answer: WriterAnswer, files: Record<string, string>): Record<string, string> {
  const out = { ...files };
  if (answer.format === 'whole-file') {
    for (const edit of answer.edits) out[edit.path] = edit.content;
    return out;
  }
  if (answer.format === 'search-replace') {
    for (const edit of answer.edits) {
      const text = out[edit.path] ?? '';
      if (edit.search === '') out[edit.path] = edit.replace;
      else if (!text.includes(edit.search)) throw new Error(`search block not found in ${edit.path}`);
      else out[edit.path] = text.replace(edit.search, () => edit.replace);
    }
    return out;
  }
  for (const patch of parsePatch(answer.diff)) {
    const path = (patch.newFileName ?? '').replace(/^b\//, '');
    const applied = applyPatch(out[path] ?? '', patch);
    if (applied === false) throw new Error(`the diff does not apply to ${path}`);
    out[path] = applied;
  }
  return out;
}

export interface Region {
  /** 0-based line in `a` where the region starts. */
  at: number;
  removed: string[];
  added: string[];
}

/** The regions where two texts differ, line by line. */
export function regions(a: string, b: string): Region[] {
  const out: Region[] = [];
  let line = 0;
  let open: Region | null = null;
  for (const part of diffArrays(splitLines(a), splitLines(b))) {
    if (!part.added && !part.removed) {
      open = null;
      line += part.value.length;
      continue;
    }
    open ??= out[out.push({ at: line, removed: [], added: [] }) - 1] as Region;
    if (part.removed) {
      open.removed.push(...part.value);
      line += part.value.length;
    } else open.added.push(...part.value);
  }
  return out;
}

/**
 * The one region where two texts differ: what lies between their common first lines and their common
 * last lines (exact even where a file repeats itself, unlike a line diff's alignment).
 */
export function changeRegion(a: string, b: string): Region {
  const left = splitLines(a);
  const right = splitLines(b);
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start++;
  let end = 0;
  while (
    end < left.length - start &&
    end < right.length - start &&
    left[left.length - 1 - end] === right[right.length - 1 - end]
  )
    end++;
  return { at: start, removed: left.slice(start, left.length - end), added: right.slice(start, right.length - end) };
}

/** Lines of two answers' texts (the JSON of each, one edit field per line) that differ. */
export function differingLines(a: string, b: string): { left: string; right: string }[] {
  const left = a.split('\n');
  const right = b.split('\n');
  if (left.length !== right.length) return [{ left: `${left.length} lines`, right: `${right.length} lines` }];
  return left.flatMap((line, index) => (line === right[index] ? [] : [{ left: line, right: right[index] ?? '' }]));
}

export const answerText = (answer: WriterAnswer): string =>
  answer.format === 'unified-diff'
    ? answer.diff
    : answer.edits.map((edit) => Object.values(edit).join('\n')).join('\n');

/** The kinds each format can carry, for tables of cases. */
export const FORMAT_KINDS: Record<EditFormatName, FaultKind[]> = {
  'whole-file': ['elide', 'wrong-path', 'test-path', 'unrelated-change', 'no-op'],
  'search-replace': ['elide', 'reindent', 'near-miss-search', 'wrong-path', 'test-path', 'unrelated-change', 'no-op'],
  'unified-diff': [
    'reindent',
    'diff-header',
    'diff-whitespace',
    'wrong-path',
    'test-path',
    'unrelated-change',
    'no-op',
  ],
};

export type { SpoilResult };

const TRIVIALLY_TRUE =
  /^\s*(assert True|self\.assertTrue\(True\)|assert\.ok\(true\);?|expect\(true\)\.toBe\(true\);?|\.end\(\w+\);?|\.expect\(function \(\) \{\}\);?)\s*$/;

/**
 * What is wrong with a spoiled answer as a case of `kind`: the defect missing, or something else
 * changed besides it. Empty when the defect is there and only there.
 */
export function defectProblems(
  kind: FaultKind,
  input: SpoilInput,
  result: SpoilResult,
  shown: Record<string, string>,
): string[] {
  if (!result.ok) return [`${kind} did not apply: ${result.reason}`];
  const { answer: spoiled, evidence } = result;
  const correct = input.answer;
  const problems: string[] = [];
  const check = (ok: boolean, problem: string) => ok || problems.push(problem);
  const fixed = applyLiterally(correct, shown);
  const changedPaths = (applied: Record<string, string>, against: Record<string, string>) =>
    Object.keys({ ...applied, ...against }).filter((path) => applied[path] !== against[path]);
  const textual = differingLines(answerText(correct), answerText(spoiled));
  switch (kind) {
    case 'elide':
    case 'unrelated-change': {
      const applied = applyLiterally(spoiled, shown);
      const paths = changedPaths(applied, fixed);
      check(paths.length === 1, `changes ${paths.length} files beyond the fix`);
      const path = paths[0] ?? '';
      const region = changeRegion(fixed[path] ?? '', applied[path] ?? '');
      // Where the fix wrote its lines in the fixed file (each of its hunks), and how far each moved what follows.
      let shift = 0;
      const written = regions(shown[path] ?? '', fixed[path] ?? '').map((fix) => {
        const start = fix.at + shift;
        shift += fix.added.length - fix.removed.length;
        return { start, end: start + fix.added.length, shift };
      });
      const apart = (margin: number) =>
        written.every(
          (fix) =>
            region.at + Math.max(region.removed.length, 1) + margin <= fix.start || region.at >= fix.end + margin,
        );
      if (kind === 'elide' && evidence.kind === 'elide') {
        check(
          region.removed.length >= 8 && region.added.length === 1 && region.added[0]?.trim() === evidence.placeholder,
          `not ${region.removed.length} lines for one placeholder`,
        );
        check(
          /^(#|\/\/) \.\.\. existing code \.\.\.$/.test(evidence.placeholder),
          `placeholder ${evidence.placeholder}`,
        );
        check(apart(0), 'elides lines the fix wrote');
      }
      if (kind === 'unrelated-change' && evidence.kind === 'unrelated-change') {
        check(path === evidence.path, `changes ${path}, evidence names ${evidence.path}`);
        check(apart(4), 'the unrelated change is next to the fix');
        // In the file before the fix (the change lies before the fix, or after it and shifted by it).
        const line = region.at - (written.filter((fix) => fix.end <= region.at).at(-1)?.shift ?? 0) + 1;
        check(
          line >= evidence.range[0] && line <= evidence.range[1],
          `the unrelated change starts at line ${line}, evidence says ${evidence.range.join('-')}`,
        );
      }
      break;
    }
    case 'no-op': {
      const applied = applyLiterally(spoiled, shown);
      check(changedPaths(applied, shown).length === 0, 'the answer changes something');
      break;
    }
    case 'test-path': {
      if (evidence.kind !== 'test-path') break;
      if (spoiled.format === 'whole-file' && correct.format === 'whole-file') {
        check(
          spoiled.edits.length === correct.edits.length &&
            spoiled.edits.some(
              (edit) =>
                edit.path === evidence.testPath && correct.edits.some((other) => other.content === edit.content),
            ),
          'the fixed source is not written over the test file',
        );
        check(
          !spoiled.edits.some((edit) => input.gold.some((file) => file.path === edit.path)),
          'a gold file is still written',
        );
        break;
      }
      const applied = applyLiterally(spoiled, shown);
      const paths = changedPaths(applied, shown);
      check(
        paths.length === 1 && paths[0] === evidence.testPath,
        `changes ${paths.join(', ')}, not only the test file`,
      );
      const found = regions(shown[evidence.testPath] ?? '', applied[evidence.testPath] ?? '');
      check(
        found.length === 1 &&
          found[0]?.added.length === 1 &&
          TRIVIALLY_TRUE.test(found[0]?.added[0] ?? '') &&
          /assert|expect/.test(found[0]?.removed.join('') ?? ''),
        `not one assertion made trivially true: ${JSON.stringify(found)}`,
      );
      break;
    }
    case 'wrong-path':
      if (evidence.kind !== 'wrong-path') break;
      check(
        answerText(spoiled).split(evidence.wrongPath).join(evidence.path) === answerText(correct),
        'more than the path differs',
      );
      check(
        !(evidence.wrongPath in shown) && evidence.wrongPath !== evidence.path,
        `${evidence.wrongPath} is a file the writer is shown`,
      );
      break;
    case 'near-miss-search': {
      if (
        spoiled.format !== 'search-replace' ||
        correct.format !== 'search-replace' ||
        evidence.kind !== 'near-miss-search'
      )
        break;
      const changed = spoiled.edits.flatMap((edit, index) =>
        edit.search !== correct.edits[index]?.search ||
        edit.replace !== correct.edits[index]?.replace ||
        edit.path !== correct.edits[index]?.path
          ? [index]
          : [],
      );
      check(changed.length === 1, `${changed.length} blocks changed`);
      const index = changed[0] ?? 0;
      const edit = spoiled.edits[index];
      const original = correct.edits[index];
      check(edit?.replace === original?.replace, 'the replace changed');
      check(
        differingLines(edit?.search ?? '', original?.search ?? '').length === 1,
        'not exactly one line of the search differs',
      );
      check(!(shown[edit?.path ?? ''] ?? '').includes(edit?.search ?? ''), 'the search still matches');
      const at = (shown[original?.path ?? ''] ?? '').indexOf(original?.search ?? '');
      const line = (shown[original?.path ?? ''] ?? '').slice(0, at).split('\n').length;
      check(
        evidence.ranges.some(([from, to]) => line >= from && line <= to),
        `the true block is at line ${line}, evidence says ${JSON.stringify(evidence.ranges)}`,
      );
      break;
    }
    case 'reindent': {
      // A diff line keeps its mark (' ', '-', '+'); only what follows it may be reindented.
      const body = (line: string) => (spoiled.format === 'unified-diff' ? line.slice(1) : line);
      const mark = (line: string) => (spoiled.format === 'unified-diff' ? line.slice(0, 1) : '');
      check(
        textual.length > 0 &&
          textual.every(
            ({ left, right }) =>
              left !== right && mark(left) === mark(right) && body(left).trimStart() === body(right).trimStart(),
          ),
        'lines differ by more than indentation',
      );
      if (spoiled.format === 'search-replace')
        check(
          spoiled.edits.every(
            (edit) =>
              edit.search === '' ||
              correct.format !== 'search-replace' ||
              correct.edits.some((other) => other.search === edit.search) ||
              !(shown[edit.path] ?? '').includes(edit.search),
          ),
          'a reindented search still matches exactly',
        );
      break;
    }
    case 'diff-header':
      check(
        textual.length > 0 && textual.every(({ left, right }) => left.startsWith('@@') && right.startsWith('@@')),
        'lines other than hunk headers differ',
      );
      break;
    case 'diff-whitespace':
      check(
        textual.length > 0 &&
          textual.every(
            ({ left, right }) =>
              (left.startsWith(' ') || left === '') &&
              (right.startsWith(' ') || right === '') &&
              left.trim() === right.trim(),
          ),
        'lines other than context whitespace differ',
      );
      break;
    default:
      problems.push(`no check for ${kind}`);
  }
  return problems;
}
