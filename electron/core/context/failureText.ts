/**
 * A test run as a writer is told of it, read for ranking: what failed, and the lines worth matching
 * against the code. The Verifier's failure excerpt (verifier/excerpt.ts: `Failing tests (n…):`, then
 * `1) <test id>`, its message and `at <file:line>`) names the failing tests itself; in the raw output
 * that follows it (or in a runner's output alone) progress dots, passing tests, runner banners,
 * timings, frames inside node or node_modules and the summary that repeats the failures are dropped:
 * their words are the same for every bug and pushed the test file and unrelated names above the
 * source file to fix.
 */
export interface FailingTestRef {
  /** The id as the runner printed it (`tests/test_split.py::test_x`, `test/a.test.ts > suite > name`). */
  id: string;
  /** The test file, when the id names one. */
  file: string | null;
  /** The test's own name (pytest: `Class.method`), parametrisation left out. */
  name: string | null;
}

export interface FailureText {
  /** The output less runner noise, each line once. */
  text: string;
  tests: FailingTestRef[];
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
const NOISE: RegExp[] = [
  // pytest progress rows (with their file in the default mode) and session banners
  /^(\S+\.py )?[.FEsxX]+\s*(\[\s*\d+%\])?$/,
  /^(platform|rootdir|configfile|plugins|cachedir|collected|collecting)\b/,
  /^=+ .*(test session starts|short test summary info|warnings summary|passes|FAILURES|ERRORS)\b.*=+$/,
  /^=*\s*\d+ (failed|passed|errors?|skipped|xfailed|xpassed|deselected|warnings?)\b.*\bin [\d.]+s\b.*$/,
  // passing tests (mocha, vitest, jest, tap)
  /^\s*(✔|✓|√|ok \d+\b|PASS\b)/,
  /^\s*\d+ (passing|pending)\b/,
  // vitest and jest summaries
  /^\s*(RUN|Test Files|Tests|Start at|Duration|Time|Snapshots|Test Suites)\b.*\d/,
  /^\s*[⎯─-]{3,}/,
  // stack frames outside the repository
  /^\s*at .*(node:|internal\/|node_modules\/|<anonymous>\)?$)/,
  /^\s*File "[^"]*(site-packages|dist-packages|\/lib\/python\d)/,
  // npm's echo of the script it runs
  /^> [\w@./-]+@\d[\w.-]* \w+$/,
  // the Verifier's own words: its result line and its headings
  /^(PASS|FAIL|INFRA_ERROR), (exit code -?\d+|no exit code)\b/,
  /^(Failing tests \(\d+.*\)|Last lines of the output):$/,
  /^_( _)+$/,
];

function testRef(id: string): FailingTestRef {
  const clean = id.trim();
  const pytest = /^([^\s:]+\.py)::(.+)$/.exec(clean);
  if (pytest?.[1] && pytest[2])
    return { id: clean, file: pytest[1], name: pytest[2].replace(/\[.*$/, '').replace(/::/g, '.') };
  const vitest = /^([^\s>]+\.[cm]?[jt]sx?)\s*>\s*(.+)$/.exec(clean);
  if (vitest?.[1] && vitest[2]) return { id: clean, file: vitest[1], name: vitest[2].split(/\s*>\s*/).pop() ?? null };
  return { id: clean, file: null, name: null };
}

/** Splits a test output into the failing tests it names and its lines less the runner's noise. */
export function failureText(output: string): FailureText {
  const tests = new Map<string, FailingTestRef>();
  const addTest = (id: string) => {
    const ref = testRef(id);
    if (ref.id && !tests.has(ref.id)) tests.set(ref.id, ref);
  };
  const kept: string[] = [];
  const seen = new Set<string>();
  let echoedScript = false;
  let inSummary = false;
  let inExcerpt = false;
  // pytest's session header (platform, rootdir, each plugin's banner) runs up to its `collected` line.
  let inHeader = false;
  for (const raw of output.replace(ANSI, '').split('\n')) {
    const line = raw.replace(/\s+$/, '');
    const trimmed = line.trim();
    // `First failing test: <id>` and, from the Verifier's excerpt, ` (<file:line>)` after it.
    const first = /^First failing test: (.+?)(?: \(([^()\s]+:\d+(?::\d+)?)\))?$/.exec(trimmed);
    if (first?.[1]) addTest(first[1]);
    if (/^Failing tests \(\d+/.test(trimmed)) inExcerpt = true;
    else if (trimmed === '' || /^Last lines of the output:$/.test(trimmed)) inExcerpt = false;
    const listed = inExcerpt ? /^\d+\) (.+)$/.exec(line) : null;
    if (listed?.[1]) addTest(listed[1]);
    const failed = /^(?:FAILED|ERROR) (\S+::\S+)/.exec(trimmed) ?? /^FAIL\s+(\S+\s*>.+)$/.exec(trimmed);
    if (failed?.[1]) addTest(failed[1].replace(/ - .*$/, ''));
    if (/^=+ short test summary info =+$/.test(trimmed)) inSummary = true;
    if (/^=+ test session starts =+$/.test(trimmed)) inHeader = true;
    if (inHeader) {
      if (/^(collected|collecting) /.test(trimmed)) inHeader = false;
      continue;
    }
    // pytest's summary repeats each failure's message: only its FAILED ids are new.
    if (inSummary) continue;
    if (echoedScript) {
      echoedScript = false;
      if (trimmed.startsWith('> ')) continue;
    }
    if (/^> [\w@./-]+@\d/.test(trimmed)) echoedScript = true;
    if (trimmed === '' || NOISE.some((pattern) => pattern.test(trimmed)) || seen.has(trimmed)) continue;
    seen.add(trimmed);
    kept.push(line);
  }
  return { text: kept.join('\n'), tests: [...tests.values()] };
}
