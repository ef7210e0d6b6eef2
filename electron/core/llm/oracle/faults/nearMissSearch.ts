import { splitLines } from '../applyGold';
import { placeBlocks } from './blockPlaces';
import { shuffled, type Random } from './random';
import { isBlank, notApplicable, shownRuns, type LineRange, type SpoilInput, type SpoilResult } from './spoil';

const KEYWORDS = new Set(
  'and as assert async await break case catch class const continue def del elif else except export extends finally for from function global if import in is lambda let new nonlocal not null of or pass raise return self static super switch this throw true false try typeof undefined var void while with yield None True False'.split(
    ' ',
  ),
);

/** One way of misremembering a line; null when it does not apply to this line. */
type Slip = (line: string, random: Random) => string | null;

/** An identifier off by a letter: one dropped, two swapped, or a plural made singular and back. */
const identifierSlip: Slip = (line, random) => {
  const names = [...line.matchAll(/[A-Za-z_][A-Za-z0-9_]{3,}/g)].filter((match) => !KEYWORDS.has(match[0]));
  const name = shuffled(random, names)[0];
  if (!name || name.index === undefined) return null;
  const word = name[0];
  const changed = word.endsWith('s')
    ? word.slice(0, -1)
    : random() < 0.5
      ? `${word}s`
      : `${word.slice(0, 2)}${word.slice(3)}`;
  return `${line.slice(0, name.index)}${changed}${line.slice(name.index + word.length)}`;
};

/** A literal slightly different: a number one off, or a string missing its last character. */
const literalSlip: Slip = (line, random) => {
  const literals = [...line.matchAll(/(['"])([^'"\\\n]{2,})\1|\b\d+\b/g)];
  const literal = shuffled(random, literals)[0];
  if (!literal || literal.index === undefined) return null;
  const text = literal[0];
  const changed = /^\d+$/.test(text) ? String(Number(text) + 1) : `${text.slice(0, -2)}${text.slice(-1)}`;
  return `${line.slice(0, literal.index)}${changed}${line.slice(literal.index + text.length)}`;
};

/** A token dropped: the statement's `;`, a trailing `,` or `:`, a `self.`/`this.` receiver, a `const `/`let `. */
const dropSlip: Slip = (line, random) => {
  const options = [
    [/;(\s*)$/, '$1'],
    [/,(\s*)$/, '$1'],
    [/\b(self|this)\./, ''],
    [/\b(const|let|var|return|await) /, ''],
  ] as const;
  for (const [pattern, replacement] of shuffled(random, options)) {
    const changed = line.replace(pattern, replacement);
    if (changed !== line) return changed;
  }
  return null;
};

const SLIPS: readonly Slip[] = [identifierSlip, literalSlip, dropSlip];

/**
 * `near-miss-search`: one line of a search block as a model misremembers it, so the block matches
 * nowhere in the file (search-replace only: the other formats have no search block).
 */
export function nearMissSearch(input: SpoilInput): SpoilResult {
  const { answer } = input;
  if (answer.format !== 'search-replace')
    return notApplicable('only a search-replace answer has a search block to misremember');
  const places = placeBlocks(answer.edits, input.files);
  for (const index of shuffled(
    input.random,
    answer.edits.map((_, at) => at),
  )) {
    const edit = answer.edits[index];
    const place = places[index];
    if (!edit || !place) continue;
    const lines = splitLines(edit.search);
    const runs = shownRuns(input.files.get(edit.path));
    for (const lineIndex of shuffled(
      input.random,
      lines.map((_, at) => at).filter((at) => !isBlank(lines[at] ?? '')),
    )) {
      for (const slip of shuffled(input.random, SLIPS)) {
        const line = lines[lineIndex] ?? '';
        const eol = /\r?\n$/.exec(line)?.[0] ?? '';
        const slipped = slip(line.slice(0, line.length - eol.length), input.random);
        if (slipped === null || slipped === line.slice(0, line.length - eol.length)) continue;
        const search = lines.map((other, at) => (at === lineIndex ? `${slipped}${eol}` : other)).join('');
        if (runs.some((run) => run.lines.join('').includes(search))) continue;
        const next = answer.edits.map((other, at) => (at === index ? { ...other, search } : other));
        // Lathe may count lines in the file as shown or as the earlier blocks left it: either range is the true one.
        const ranges: LineRange[] = [[place.originalLine + 1, place.originalLine + place.count]];
        if (place.fileLine !== place.originalLine) ranges.push([place.fileLine + 1, place.fileLine + place.count]);
        return {
          ok: true,
          answer: { format: 'search-replace', edits: next },
          evidence: { kind: 'near-miss-search', path: edit.path, ranges },
        };
      }
    }
  }
  return notApplicable('no line of any search block can be misremembered into one that matches nowhere');
}
