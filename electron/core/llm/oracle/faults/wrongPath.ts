import { formatDiff, parseDiff } from './diffSections';
import { pick, shuffled, type Random } from './random';
import { notApplicable, type SpoilInput, type SpoilResult } from './spoil';

/** Paths a model plausibly writes instead of `path`: its folder dropped, or its name one letter off. */
export function misremembered(path: string, random: Random): string[] {
  const slash = path.lastIndexOf('/');
  const folder = slash >= 0 ? path.slice(0, slash + 1) : '';
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  const options: string[] = [];
  if (folder !== '') options.push(name);
  // One letter: a plural made singular or the other way (sql.py → sqls.py, utils.ts → util.ts), or a letter doubled.
  if (stem.length >= 2) options.push(`${folder}${stem.endsWith('s') ? stem.slice(0, -1) : `${stem}s`}${ext}`);
  const letters = [...stem].map((char, at) => (/[a-z]/i.test(char) ? at : -1)).filter((at) => at > 0);
  const doubled = pick(random, letters);
  if (doubled !== undefined) options.push(`${folder}${stem.slice(0, doubled + 1)}${stem.slice(doubled)}${ext}`);
  return shuffled(random, options).filter((option) => option !== path && option !== '');
}

/** Paths the request shows (files in the context): a wrong path must not be one of them. */
function knownPaths(input: SpoilInput): Set<string> {
  const paths = new Set(input.files.keys());
  for (const note of input.notes) for (const match of note.matchAll(/[\w./-]+\.\w+/g)) paths.add(match[0]);
  return paths;
}

/** `wrong-path`: one edit's path altered realistically (every format). */
export function wrongPath(input: SpoilInput): SpoilResult {
  const { answer, random } = input;
  const known = knownPaths(input);
  const paths =
    answer.format === 'unified-diff'
      ? parseDiff(answer.diff).sections.map((section) => section.path)
      : answer.edits.map((edit) => edit.path);
  for (const path of shuffled(
    random,
    [...new Set(paths)].filter((entry) => entry !== ''),
  )) {
    const wrong = misremembered(path, random).find((option) => !known.has(option));
    if (!wrong) continue;
    const evidence = { kind: 'wrong-path' as const, path, wrongPath: wrong };
    if (answer.format !== 'unified-diff') {
      const edits = answer.edits.map((edit) => (edit.path === path ? { ...edit, path: wrong } : edit));
      return { ok: true, answer: { ...answer, edits } as typeof answer, evidence };
    }
    const diff = parseDiff(answer.diff);
    for (const section of diff.sections.filter((entry) => entry.path === path)) {
      section.head = section.head.map((line) =>
        /^(diff --git |--- |\+\+\+ )/.test(line)
          ? line.split(`a/${path}`).join(`a/${wrong}`).split(`b/${path}`).join(`b/${wrong}`)
          : line,
      );
      section.path = wrong;
    }
    return { ok: true, answer: { format: 'unified-diff', diff: formatDiff(diff) }, evidence };
  }
  return notApplicable('no path of the answer has a plausible misspelling that names no file the writer is shown');
}
