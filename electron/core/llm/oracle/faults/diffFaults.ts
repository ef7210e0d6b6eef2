import { formatDiff, hunkHeader, parseDiff, type DiffHunk, type DiffSection } from './diffSections';
import { between, pick, shuffled, type Random } from './random';
import { notApplicable, type SpoilInput, type SpoilResult } from './spoil';

const withDiff = (
  kind: 'diff-header' | 'diff-whitespace',
  input: SpoilInput,
  reason: string,
  spoil: (sections: DiffSection[], random: Random) => string | null,
): SpoilResult => {
  if (input.answer.format !== 'unified-diff')
    return notApplicable('only a unified-diff answer has hunk headers and context lines');
  const diff = parseDiff(input.answer.diff);
  const path = spoil(diff.sections, input.random);
  if (path === null) return notApplicable(reason);
  return { ok: true, answer: { format: 'unified-diff', diff: formatDiff(diff) }, evidence: { kind, path } };
};

/** Every hunk of one file moved by the same few lines (a model counting from a stale copy), or one hunk's counts off. */
function spoilHeaders(sections: DiffSection[], random: Random): string | null {
  const section = pick(
    random,
    sections.filter((entry) => entry.hunks.some((hunk) => hunk.oldStart > 0)),
  );
  if (!section) return null;
  const rewrite = (hunk: DiffHunk, change: Partial<DiffHunk>) => {
    Object.assign(hunk, change);
    hunk.header = hunkHeader(hunk);
  };
  if (random() < 0.5) {
    const step = between(random, 3, 15) * (random() < 0.5 ? -1 : 1);
    const shift = section.hunks.every((hunk) => hunk.oldStart + step >= 1 && hunk.newStart + step >= 1)
      ? step
      : Math.abs(step);
    for (const hunk of section.hunks)
      rewrite(hunk, { oldStart: hunk.oldStart + shift, newStart: hunk.newStart + shift });
  } else {
    const hunk = pick(random, section.hunks) as DiffHunk;
    const off = between(random, 1, 2) * (random() < 0.5 || hunk.oldCount <= 2 ? 1 : -1);
    rewrite(
      hunk,
      random() < 0.5
        ? { oldCount: hunk.oldCount + off }
        : { oldCount: hunk.oldCount + off, newCount: Math.max(0, hunk.newCount + off) },
    );
  }
  return section.path;
}

type WhitespaceSlip = (lines: string[], random: Random) => boolean;

const contextIndexes = (lines: readonly string[], test: (body: string) => boolean) =>
  lines.flatMap((line, at) => (line.startsWith(' ') && test(line.slice(1)) ? [at] : []));

/** Blank context lines written as empty lines, their leading space lost (editors trim it). */
const blankContext: WhitespaceSlip = (lines) => {
  const blanks = contextIndexes(lines, (body) => body === '\n' || body === '\r\n');
  blanks.forEach((at) => (lines[at] = (lines[at] ?? ' \n').slice(1)));
  return blanks.length > 0;
};

/** Trailing spaces after a few context lines. */
const trailingAdded: WhitespaceSlip = (lines, random) => {
  const code = contextIndexes(lines, (body) => body.trim() !== '');
  const chosen = shuffled(random, code).slice(0, between(random, 1, 3));
  chosen.forEach((at) => (lines[at] = (lines[at] ?? '').replace(/(\r?\n)?$/, (eol) => `  ${eol}`)));
  return chosen.length > 0;
};

/** Trailing whitespace the file has on context lines, dropped. */
const trailingStripped: WhitespaceSlip = (lines) => {
  const trailing = contextIndexes(lines, (body) => /[ \t]+\r?\n?$/.test(body) && body.trim() !== '');
  trailing.forEach(
    (at) => (lines[at] = (lines[at] ?? '').replace(/[ \t]+(\r?\n)?$/, (_, eol: string | undefined) => eol ?? '')),
  );
  return trailing.length > 0;
};

/** Context indentation retyped: tabs as four spaces, or four spaces as a tab. */
const indentRetyped: WhitespaceSlip = (lines) => {
  const indented = contextIndexes(lines, (body) => /^(\t| {4})/.test(body));
  indented.forEach((at) => {
    const body = (lines[at] ?? ' ').slice(1);
    lines[at] =
      ` ${body.startsWith('\t') ? body.replace(/^\t+/, (tabs) => '    '.repeat(tabs.length)) : body.replace(/^( {4})+/, (spaces) => '\t'.repeat(spaces.length / 4))}`;
  });
  return indented.length > 0;
};

function spoilWhitespace(sections: DiffSection[], random: Random): string | null {
  for (const section of shuffled(random, sections)) {
    for (const slip of shuffled(random, [blankContext, trailingAdded, trailingStripped, indentRetyped])) {
      const changed = section.hunks.map((hunk) => slip(hunk.lines, random)).some(Boolean);
      if (changed) return section.path;
    }
  }
  return null;
}

/** `diff-header`: wrong `@@` line numbers or counts (unified-diff). */
export function diffHeader(input: SpoilInput): SpoilResult {
  return withDiff('diff-header', input, 'the diff has no hunk header to get wrong', spoilHeaders);
}

/** `diff-whitespace`: the whitespace of context lines changed (unified-diff). */
export function diffWhitespace(input: SpoilInput): SpoilResult {
  return withDiff(
    'diff-whitespace',
    input,
    'the diff has no context line whose whitespace can change',
    spoilWhitespace,
  );
}
