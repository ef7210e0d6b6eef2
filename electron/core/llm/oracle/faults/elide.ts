import { splitLines } from '../applyGold';
import type { PatchLine } from '../goldPatch';
import { lineCorrespondence, placeBlocks } from './blockPlaces';
import { between, pick, shuffled, type Random } from './random';
import { eolOf, indentOf, isBlank, notApplicable, placeholderLine, type SpoilInput, type SpoilResult } from './spoil';

/** A model elides at least this many unchanged lines, and only where most of them are code. */
export const MIN_ELIDED = 8;
const MAX_ELIDED = 40;
/** Whole-file: elided lines keep this distance from every changed line ("away from the fix"). */
const FIX_MARGIN = 3;

const mostlyCode = (lines: readonly PatchLine[]) => lines.filter((line) => !isBlank(line)).length * 2 >= lines.length;

/** The placeholder for `lines`, indented like their first line of code. */
function placeholderFor(path: string, lines: readonly PatchLine[]): PatchLine {
  const first = lines.find((line) => !isBlank(line)) ?? '';
  return placeholderLine(path, indentOf(first), eolOf(lines.at(-1) ?? '\n') || '\n');
}

/** Runs of unchanged lines of the new content, at least FIX_MARGIN lines from any change, long enough to elide. */
function elidableRuns(before: readonly PatchLine[], after: readonly PatchLine[]): { start: number; end: number }[] {
  const { unchangedAfter } = lineCorrespondence(before, after);
  const changed = unchangedAfter.flatMap((unchanged, index) => (unchanged ? [] : [index]));
  // A removal leaves no line of its own in the new content: the lines around it count as changed.
  const { beforeToAfter } = lineCorrespondence(before, after);
  beforeToAfter.forEach((to, index) => {
    if (to >= 0) return;
    const next = beforeToAfter.slice(index).find((value) => value >= 0);
    changed.push(next ?? after.length);
  });
  const eligible = after.map(
    (_, index) => unchangedAfter[index] === true && changed.every((at) => Math.abs(at - index) > FIX_MARGIN),
  );
  const runs: { start: number; end: number }[] = [];
  let start = -1;
  eligible.forEach((ok, index) => {
    if (ok && start < 0) start = index;
    if ((!ok || index === eligible.length - 1) && start >= 0) {
      const end = ok ? index + 1 : index;
      if (end - start >= MIN_ELIDED && mostlyCode(after.slice(start, end))) runs.push({ start, end });
      start = -1;
    }
  });
  return runs;
}

function elideWholeFile(input: SpoilInput & { answer: { format: 'whole-file' } }): SpoilResult {
  const candidates = input.answer.edits.flatMap((edit, index) => {
    const view = input.files.get(edit.path);
    if (!view?.whole) return [];
    const after = splitLines(edit.content);
    return elidableRuns(splitLines(view.content), after).map((run) => ({ index, after, run }));
  });
  const chosen = pick(input.random, candidates);
  if (!chosen)
    return notApplicable(`no file of the answer has ${MIN_ELIDED} unchanged lines of code away from the fix`);
  const { index, after, run } = chosen;
  const length = between(input.random, MIN_ELIDED, Math.min(MAX_ELIDED, run.end - run.start));
  const start = between(input.random, run.start, run.end - length);
  const path = input.answer.edits[index]?.path ?? '';
  const placeholder = placeholderFor(path, after.slice(start, start + length));
  const content = [...after.slice(0, start), placeholder, ...after.slice(start + length)].join('');
  const edits = input.answer.edits.map((edit, at) => (at === index ? { path: edit.path, content } : edit));
  return {
    ok: true,
    answer: { format: 'whole-file', edits },
    evidence: { kind: 'elide', placeholder: placeholder.trim() },
  };
}

/**
 * Search-replace: the block grows over a run of unchanged lines next to its change (one line kept on
 * each side of the run), and the replace says the run is "existing code" instead of repeating it.
 */
function elideSearchReplace(input: SpoilInput & { answer: { format: 'search-replace' } }): SpoilResult {
  const edits = input.answer.edits;
  const places = placeBlocks(edits, input.files);
  const spans = places.map((place, index) =>
    place ? { path: edits[index]?.path, start: place.originalLine, end: place.originalLine + place.count } : null,
  );
  const options = places.flatMap((place, index) => {
    if (!place) return [];
    const path = edits[index]?.path;
    const clear = (start: number, end: number) =>
      spans.every(
        (span, other) =>
          other === index || !span || span.path !== path || end + 1 <= span.start || start >= span.end + 1,
      );
    const below = place.lines.length - (place.line + place.count);
    const above = place.line;
    return [
      ...(below >= MIN_ELIDED + 2 &&
      clear(place.originalLine + place.count, place.originalLine + place.count + MIN_ELIDED + 2)
        ? [{ index, place, side: 'below' as const, room: below }]
        : []),
      ...(above >= MIN_ELIDED + 2 && clear(place.originalLine - MIN_ELIDED - 2, place.originalLine)
        ? [{ index, place, side: 'above' as const, room: above }]
        : []),
    ];
  });
  for (const option of shuffled(input.random, options)) {
    const spoiled = elideBlock(input.random, edits[option.index] as (typeof edits)[number], option);
    if (spoiled) {
      const next = edits.map((edit, at) => (at === option.index ? spoiled.edit : edit));
      return {
        ok: true,
        answer: { format: 'search-replace', edits: next },
        evidence: { kind: 'elide', placeholder: spoiled.placeholder },
      };
    }
  }
  return notApplicable(
    `no search block has ${MIN_ELIDED} unchanged lines of code next to it in what the writer is shown`,
  );
}

function elideBlock(
  random: Random,
  edit: { path: string; search: string; replace: string },
  option: {
    place: { line: number; count: number; lines: readonly PatchLine[] };
    side: 'below' | 'above';
    room: number;
  },
): { edit: typeof edit; placeholder: string } | null {
  const { place, side } = option;
  const grow = between(random, MIN_ELIDED + 2, Math.min(option.room, MAX_ELIDED + 2));
  const extra =
    side === 'below'
      ? place.lines.slice(place.line + place.count, place.line + place.count + grow)
      : place.lines.slice(place.line - grow, place.line);
  const elided = extra.slice(1, -1);
  if (!mostlyCode(elided)) return null;
  const placeholder = placeholderFor(edit.path, elided);
  const kept = [extra[0] ?? '', placeholder, extra.at(-1) ?? ''].join('');
  const search = side === 'below' ? `${edit.search}${extra.join('')}` : `${extra.join('')}${edit.search}`;
  const replace = side === 'below' ? `${edit.replace}${kept}` : `${kept}${edit.replace}`;
  return { edit: { path: edit.path, search, replace }, placeholder: placeholder.trim() };
}

/** `elide`: unchanged lines replaced by `// ... existing code ...` (whole-file, search-replace). */
export function elide(input: SpoilInput): SpoilResult {
  const { answer } = input;
  if (answer.format === 'whole-file') return elideWholeFile({ ...input, answer });
  if (answer.format === 'search-replace') return elideSearchReplace({ ...input, answer });
  return notApplicable('a diff carries only the lines it changes and their context: there is nothing to elide');
}
