import { failureText, type FailingTestRef } from './failureText';

/** What a context query is made of: the goal, the failing output, the plan's and the Scouts' files. */
export interface ContextQuery {
  goal: string;
  /** Failing test output, a critique or a fix plan: whatever the writer is told went wrong. */
  feedback?: string | null;
  /** Files the plan names for this task: edited, so always first. */
  artifacts?: string[];
  /** Files the Scouts named as targets. */
  targetFiles?: string[];
}

export interface QuerySignals {
  /** Identifiers and words, as written, from the goal and the feedback (test names and messages included). */
  terms: string[];
  /** The goal's own words: scored apart from the feedback's, so a long test output cannot drown them. */
  goalTerms: string[];
  /** The feedback's words, the test runner's noise left out. */
  feedbackTerms: string[];
  /** Repo files the feedback or goal names, with the lines its stack frames point at. */
  mentioned: Map<string, number[]>;
  /** The failing tests the feedback names, their files resolved in the repository (null: not found). */
  failingTests: FailingTestRef[];
}

const STOPWORDS = new Set(
  'the a an and or not no of to in on at for from by with without when where which that this these those is are was were be been being it its as if else then than but into onto over under fix fixed fixes fixing bug issue issues error errors should must can cannot does do did done make makes use used uses using now only also more less new old add adds added remove removed handle handles handling case cases test tests failing fails failed failure expected actual value values true false null none undefined return returns returned first output line lines file files call called work works get set some all any each same other'.split(
    ' ',
  ),
);

/** `fooBar_baz` → foo, bar, baz (lowercase, two letters or more) and the whole word. */
export function subtokens(identifier: string): string[] {
  const parts = identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.toLowerCase())
    .filter((part) => part.length >= 2);
  const whole = identifier.toLowerCase().replace(/^[_$]+|[_$]+$/g, '');
  return parts.length > 1 && whole.length >= 2 ? [...parts, whole] : parts;
}

export function queryWords(text: string): string[] {
  return [...text.matchAll(/[A-Za-z_$][\w$]*/g)]
    .map((match) => match[0])
    .filter((word) => word.length >= 2 && !STOPWORDS.has(word.toLowerCase()));
}

/** Where a text points into a file: the file, and the lines (a range's first and last). */
const FRAME_PATTERNS: readonly { pattern: RegExp; file: number; lines: readonly number[] }[] = [
  // Python tracebacks: File "pkg/mod.py", line 12, in name
  { pattern: /File "([^"]+)", line (\d+)/g, file: 1, lines: [2] },
  // pytest's short form and most runners: path/to/file.ext:12 (optionally :col)
  { pattern: /((?:[A-Za-z]:)?[\w./@+-]*[\w-]\.[A-Za-z]{1,6}):(\d+)(?::\d+)?/g, file: 1, lines: [2] },
  // Prose, a writer's request or Lathe's own feedback: "line 4897 of pkg/more.py", "lines 12-20 in src/a.js"
  {
    pattern:
      /\blines? (\d+)(?:\s*[-–]\s*(\d+))?,? (?:of|in) [\x60'"]?((?:[A-Za-z]:)?[\w./@+-]*[\w-]\.[A-Za-z]{1,6})\b/g,
    file: 3,
    lines: [1, 2],
  },
];

function resolveKnown(candidate: string, known: ReadonlySet<string>, suffixes: Map<string, string>): string | null {
  const clean = candidate.replace(/^\.\//, '').replace(/^file:\/\//, '');
  if (known.has(clean)) return clean;
  const parts = clean.split('/');
  for (let i = 1; i < parts.length; i++) {
    const hit = suffixes.get(parts.slice(i).join('/'));
    if (hit) return hit;
  }
  return null;
}

/** The query's identifiers and the repo files it points at (stack frames give lines). */
export function querySignals(query: ContextQuery, known: ReadonlySet<string>): QuerySignals {
  const suffixes = new Map<string, string>();
  for (const file of known) {
    const parts = file.split('/');
    for (let i = 0; i < parts.length; i++) {
      const suffix = parts.slice(i).join('/');
      // A suffix two files share names neither.
      suffixes.set(suffix, suffixes.has(suffix) && suffixes.get(suffix) !== file ? '' : file);
    }
  }
  const failure = failureText(query.feedback ?? '');
  const text = `${query.goal}\n${failure.text}`;
  const mentioned = new Map<string, number[]>();
  const mention = (file: string, line: number | null) => {
    const lines = mentioned.get(file) ?? [];
    if (line !== null && !lines.includes(line)) lines.push(line);
    mentioned.set(file, lines);
  };
  for (const frame of FRAME_PATTERNS) {
    for (const match of text.matchAll(frame.pattern)) {
      const file = resolveKnown(match[frame.file] ?? '', known, suffixes);
      if (!file) continue;
      for (const group of frame.lines) if (match[group] !== undefined) mention(file, Number(match[group]));
    }
  }
  for (const match of text.matchAll(/[\w./@+-]+\.[A-Za-z0-9]{1,8}/g)) {
    const file = resolveKnown(match[0], known, suffixes);
    if (file) mention(file, null);
  }
  const failingTests = failure.tests.map((test) => ({
    ...test,
    file: test.file === null ? null : resolveKnown(test.file, known, suffixes),
  }));
  for (const test of failingTests) if (test.file && !mentioned.has(test.file)) mention(test.file, null);
  return {
    terms: queryWords(text),
    goalTerms: queryWords(query.goal),
    feedbackTerms: queryWords(failure.text),
    mentioned,
    failingTests,
  };
}
