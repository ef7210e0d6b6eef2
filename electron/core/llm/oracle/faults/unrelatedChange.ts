import { splitLines } from '../applyGold';
import type { GoldFile, PatchLine } from '../goldPatch';
import { lineCorrespondence, placeBlocks, uniqueBlock } from './blockPlaces';
import { commentBlocks, docstringOf, functionsIn, isPython, type CodeSpan } from './codeShapes';
import { formatDiff, hunkAt, hunkHeader, parseDiff, sectionFor } from './diffSections';
import { pick, shuffled, type Random } from './random';
import {
  awayFromGold,
  escapeRegExp,
  isBlank,
  notApplicable,
  shownRuns,
  type ShownRun,
  type SpoilInput,
  type SpoilResult,
  type WriterAnswer,
} from './spoil';

/** Lines kept between the unrelated change and the gold hunks (which carry 3 lines of context themselves). */
const MARGIN = 4;

/** One unrelated change: `count` lines at `at` of a shown run replaced by `replacement`. */
export interface UnrelatedEdit {
  path: string;
  runIndex: number;
  at: number;
  count: number;
  replacement: PatchLine[];
  variant: 'rename' | 'delete-comment' | 'delete-helper';
}

/** A shorter or longer spelling of a local's name, as a model "tidying up" writes it. */
function renamed(name: string, path: string, text: string): string | null {
  const options =
    name.length >= 5
      ? [name.slice(0, 3), isPython(path) ? `${name}_` : `${name}Value`]
      : [isPython(path) ? `${name}_val` : `${name}Val`];
  return options.find((option) => !new RegExp(`\\b${escapeRegExp(option)}\\b`).test(text)) ?? null;
}

/** Locals assigned in a function (not its parameters), every use of which can be renamed safely. */
function renamableLocals(path: string, lines: readonly PatchLine[], fn: CodeSpan): string[] {
  const body = lines.slice(fn.head + 1, fn.end);
  const assigned = body.flatMap((line) => {
    const match = isPython(path)
      ? /^\s+([a-z_][a-z0-9_]*)\s*=(?!=)/.exec(line)
      : /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=/.exec(line);
    return match?.[1] ? [match[1]] : [];
  });
  const signature = lines[fn.head] ?? '';
  return [...new Set(assigned)].filter((name) => {
    if (new RegExp(`\\b${escapeRegExp(name)}\\b`).test(signature) || ['self', 'cls'].includes(name)) return false;
    const use = new RegExp(`(^|[^\\w.$])${escapeRegExp(name)}\\b`, 'g');
    return body.every((line) =>
      [...line.matchAll(use)].every((match) => {
        const at = (match.index ?? 0) + (match[1]?.length ?? 0);
        const before = line.slice(0, at);
        const after = line.slice(at + name.length);
        const inString = [`'`, '"', '`'].some((quote) => before.split(quote).length % 2 === 0);
        // A keyword argument (`f(name=name)`), an object key or a shorthand property would change meaning.
        const keyLike =
          /^\s*:(?!:)/.test(after) ||
          (/^\s*=(?!=)/.test(after) && !/^\s*$/.test(before)) ||
          (/[{,]\s*$/.test(before) && /^\s*[,}]/.test(after));
        return !inString && !keyLike;
      }),
    );
  });
}

function renameEdit(
  path: string,
  run: ShownRun,
  runIndex: number,
  fn: CodeSpan,
  name: string,
  text: string,
): UnrelatedEdit | null {
  const other = renamed(name, path, text);
  if (!other) return null;
  const pattern = `(^|[^\\w.$])${escapeRegExp(name)}\\b`;
  const uses = new RegExp(pattern);
  const use = new RegExp(pattern, 'g');
  const touched = run.lines
    .map((line, at) => (at > fn.head && at < fn.end && uses.test(line) ? at : -1))
    .filter((at) => at >= 0);
  const first = touched[0];
  const last = touched.at(-1);
  if (first === undefined || last === undefined) return null;
  const replacement = run.lines
    .slice(first, last + 1)
    .map((line) => line.replace(use, (_, lead: string) => `${lead}${other}`));
  return { path, runIndex, at: first, count: last - first + 1, replacement, variant: 'rename' };
}

/** Every unrelated change the shown runs of `file` allow, away from its gold hunks. */
export function unrelatedEdits(file: GoldFile, runs: readonly ShownRun[]): UnrelatedEdit[] {
  const path = file.path;
  const text = runs.map((run) => run.lines.join('')).join('\n');
  const edits: UnrelatedEdit[] = [];
  runs.forEach((run, runIndex) => {
    const away = (start: number, end: number) => awayFromGold(file, run.start + start, run.start + end, MARGIN);
    const functions = functionsIn(path, run.lines);
    const holdsFix = (fn: CodeSpan) => !awayFromGold(file, run.start + fn.start, run.start + fn.end, 0);
    for (const fn of functions.filter((entry) => !holdsFix(entry))) {
      for (const name of renamableLocals(path, run.lines, fn)) {
        const edit = renameEdit(path, run, runIndex, fn, name, text);
        if (edit && away(edit.at, edit.at + edit.count)) edits.push(edit);
      }
      const doc = isPython(path) ? docstringOf(run.lines, fn) : null;
      if (doc && away(doc.start, doc.end) && !run.lines.slice(doc.start, doc.end).join('').includes('>>>'))
        edits.push({
          path,
          runIndex,
          at: doc.start,
          count: doc.end - doc.start,
          replacement: [],
          variant: 'delete-comment',
        });
    }
    for (const block of commentBlocks(path, run.lines)) {
      if (away(block.start, block.end))
        edits.push({
          path,
          runIndex,
          at: block.start,
          count: block.end - block.start,
          replacement: [],
          variant: 'delete-comment',
        });
    }
    // A helper next to the function the fix is in, that nothing else shown calls.
    functions.forEach((fn, index) => {
      if (!holdsFix(fn)) return;
      for (const helper of [functions[index - 1], functions[index + 1]]) {
        if (
          !helper ||
          holdsFix(helper) ||
          (text.match(new RegExp(`\\b${escapeRegExp(helper.name)}\\b`, 'g')) ?? []).length !== 1
        )
          continue;
        const end = isBlank(run.lines[helper.end] ?? 'x') ? helper.end + 1 : helper.end;
        if (away(helper.start, end))
          edits.push({
            path,
            runIndex,
            at: helper.start,
            count: end - helper.start,
            replacement: [],
            variant: 'delete-helper',
          });
      }
    });
  });
  return edits;
}

/** A rename or a deleted comment most of the time: those keep the tests green, which is what ships unnoticed. */
function chooseEdit(random: Random, edits: readonly UnrelatedEdit[]): UnrelatedEdit | undefined {
  const roll = random();
  const variant = roll < 0.45 ? 'rename' : roll < 0.9 ? 'delete-comment' : 'delete-helper';
  const preferred = edits.filter((edit) => edit.variant === variant);
  return pick(random, preferred.length > 0 ? preferred : edits);
}

function withEdit(
  answer: WriterAnswer,
  file: GoldFile,
  runs: readonly ShownRun[],
  edit: UnrelatedEdit,
  input: SpoilInput,
): WriterAnswer | null {
  const run = runs[edit.runIndex] as ShownRun;
  if (answer.format === 'whole-file') {
    const target = answer.edits.find((entry) => entry.path === edit.path);
    if (!target) return null;
    const after = splitLines(target.content);
    const { beforeToAfter } = lineCorrespondence(run.lines, after);
    const mapped = Array.from({ length: edit.count }, (_, offset) => beforeToAfter[edit.at + offset] ?? -1);
    const start = mapped[0] ?? -1;
    if (start < 0 || mapped.some((to, offset) => to !== start + offset)) return null;
    const content = [...after.slice(0, start), ...edit.replacement, ...after.slice(start + edit.count)].join('');
    return {
      format: 'whole-file',
      edits: answer.edits.map((entry) => (entry === target ? { path: entry.path, content } : entry)),
    };
  }
  if (answer.format === 'search-replace') {
    const block = uniqueBlock(runs, edit.runIndex, edit.at, edit.count, edit.replacement);
    if (!block) return null;
    // First, where it meets the file as shown; it must leave every block of the fix still applying. An edit
    // that changes nothing (a fix already made) stood there only because the format needs one edit.
    const fix = answer.edits.filter((entry) => entry.search !== entry.replace);
    const edits = [{ path: edit.path, ...block }, ...fix];
    return placeBlocks(edits, input.files).every((place, index) => place !== null || edits[index]?.search === '')
      ? { format: 'search-replace', edits }
      : null;
  }
  const diff = parseDiff(answer.diff);
  const oldLine = run.start + edit.at;
  const shift = file.hunks
    .filter((hunk) => hunk.oldIndex < oldLine)
    .reduce((sum, hunk) => sum + hunk.after.length - hunk.before.length, 0);
  const hunk = hunkAt(run, edit.at, edit.count, edit.replacement, shift);
  let section = diff.sections.find((entry) => entry.path === edit.path);
  if (!section) diff.sections.push((section = sectionFor(edit.path, [])));
  const delta = edit.replacement.length - edit.count;
  for (const later of section.hunks.filter((entry) => entry.oldStart > hunk.oldStart)) {
    later.newStart += delta;
    later.header = hunkHeader(later);
  }
  section.hunks = [...section.hunks, hunk].sort((a, b) => a.oldStart - b.oldStart);
  return { format: 'unified-diff', diff: formatDiff(diff) };
}

/**
 * `unrelated-change`: the correct fix plus one hunk in a gold file away from the fix — a local renamed
 * in another function, a docstring or comment block deleted, or an unused helper next to the fix deleted.
 */
export function unrelatedChange(input: SpoilInput): SpoilResult {
  const candidates = input.gold.flatMap((file) => {
    const runs = shownRuns(input.files.get(file.path));
    return file.kind === 'modify' ? unrelatedEdits(file, runs).map((edit) => ({ file, runs, edit })) : [];
  });
  const first = chooseEdit(
    input.random,
    candidates.map((entry) => entry.edit),
  );
  const ordered = first
    ? [candidates.find((entry) => entry.edit === first), ...shuffled(input.random, candidates)]
    : [];
  for (const entry of ordered) {
    if (!entry) continue;
    const answer = withEdit(input.answer, entry.file, entry.runs, entry.edit, input);
    if (!answer) continue;
    const start = entry.runs[entry.edit.runIndex]?.start ?? 0;
    const range = [start + entry.edit.at + 1, start + entry.edit.at + Math.max(entry.edit.count, 1)] as const;
    return { ok: true, answer, evidence: { kind: 'unrelated-change', path: entry.edit.path, range } };
  }
  return notApplicable(
    candidates.length === 0
      ? 'no gold file shows a local, a comment or a helper away from the fix'
      : 'no unrelated change fits the answer without breaking its blocks',
  );
}
