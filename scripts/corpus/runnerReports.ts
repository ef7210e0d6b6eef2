/**
 * Test names out of a runner's own output, to fill a task's fail_to_pass "as the runner reports
 * them". Each reader takes the report command's stdout and stderr and returns the names it could
 * see; a runner that prints no name for a passing test (uvu) gives counts only.
 */

export const RUNNERS = ['jest', 'tap', 'tape', 'ava', 'uvu', 'unittest', 'go', 'cargo'] as const;
export type RunnerName = (typeof RUNNERS)[number];

export interface RunnerReport {
  passed: string[];
  failed: string[];
  /** Passing tests counted, named or not. */
  passedCount: number;
  /** False when the runner's output does not name passing tests. */
  namesPassing: boolean;
}

const lines = (text: string) => text.split(/\r?\n/);
const unique = (names: string[]) => [...new Set(names)];
const report = (passed: string[], failed: string[]): RunnerReport => {
  const failing = unique(failed);
  const passing = unique(passed).filter((name) => !failing.includes(name));
  return { passed: passing, failed: failing, passedCount: passing.length, namesPassing: true };
};

interface JestAssertion {
  fullName?: string;
  status?: string;
}
/** `jest --json`: the JSON document on stdout, assertions by `fullName`. */
export function readJest(stdout: string): RunnerReport {
  const start = stdout.indexOf('{');
  if (start < 0) return report([], []);
  let parsed: { testResults?: { assertionResults?: JestAssertion[] }[] };
  try {
    parsed = JSON.parse(stdout.slice(start)) as typeof parsed;
  } catch {
    return report([], []);
  }
  const assertions = (parsed.testResults ?? []).flatMap((file) => file.assertionResults ?? []);
  const named = (status: string) =>
    assertions.filter((a) => a.status === status && a.fullName).map((a) => a.fullName ?? '');
  return report(named('passed'), named('failed'));
}

const TAP_LINE = /^\s*(not ok|ok)\s+\d+\s*(?:-\s*)?(.*?)(\s+#\s*(SKIP|TODO)\b.*)?$/i;
/** TAP with one line per test (ava --tap, node --test --test-reporter=tap): each `ok`/`not ok` is a test. */
export function readTapTests(stdout: string): RunnerReport {
  const passed: string[] = [];
  const failed: string[] = [];
  for (const line of lines(stdout)) {
    const match = TAP_LINE.exec(line);
    if (!match || match[3]) continue;
    (match[1]?.toLowerCase() === 'ok' ? passed : failed).push((match[2] ?? '').trim());
  }
  return report(passed, failed);
}

/** tape's TAP: `# name` opens a test, the `ok`/`not ok` lines under it are its assertions. */
export function readTape(stdout: string): RunnerReport {
  const verdict = new Map<string, boolean>();
  let current: string | null = null;
  for (const line of lines(stdout)) {
    const heading = /^# (.+)$/.exec(line);
    if (heading && !/^(tests|pass|fail|ok|skip|todo)\b/.test(heading[1] ?? '')) {
      current = (heading[1] ?? '').trim();
      if (!verdict.has(current)) verdict.set(current, true);
      continue;
    }
    const match = TAP_LINE.exec(line);
    if (match && current && !match[3] && match[1]?.toLowerCase() === 'not ok') verdict.set(current, false);
  }
  const names = [...verdict.keys()];
  return report(
    names.filter((name) => verdict.get(name)),
    names.filter((name) => !verdict.get(name)),
  );
}

const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
/** uvu names failures (`FAIL  suite  "test"`) but only counts passes (`Passed: N`). */
export function readUvu(stdout: string, stderr: string): RunnerReport {
  const text = `${stdout}\n${stderr}`.replace(ANSI_COLOUR, '');
  const failed = lines(text)
    .map((line) => /FAIL\s+(.+?)\s+"(.+)"\s*$/.exec(line))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => `${match[1]?.trim()} > ${match[2]}`);
  const passedCount = Number(/Passed:\s+(\d+)/.exec(text)?.[1] ?? 0);
  return { passed: [], failed: unique(failed), passedCount, namesPassing: false };
}

/** `python3 -m unittest -v`: `test_x (pkg.mod.Class.test_x) ... ok`, named by the dotted id. */
export function readUnittest(stdout: string, stderr: string): RunnerReport {
  const passed: string[] = [];
  const failed: string[] = [];
  const text = `${stderr}\n${stdout}`;
  const all = lines(text);
  all.forEach((line, index) => {
    const head = /^(\w+) \(([\w.]+)\)/.exec(line);
    if (!head) return;
    const method = head[1] ?? '';
    const owner = head[2] ?? '';
    const id = owner.endsWith(`.${method}`) ? owner : `${owner}.${method}`;
    // A docstring puts the verdict on the next line.
    const verdictLine = / \.\.\. /.test(line) ? line : (all[index + 1] ?? '');
    const verdict = /\.\.\. (ok|FAIL|ERROR|skipped|expected failure|unexpected success)/.exec(verdictLine)?.[1];
    if (verdict === 'ok' || verdict === 'expected failure') passed.push(id);
    else if (verdict === 'FAIL' || verdict === 'ERROR' || verdict === 'unexpected success') failed.push(id);
  });
  for (const match of text.matchAll(/^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/gm)) {
    const owner = match[2] ?? '';
    failed.push(owner.endsWith(`.${match[1]}`) ? owner : `${owner}.${match[1]}`);
  }
  return report(passed, failed);
}

/** `go test -v`: `--- PASS: TestX/sub (0.00s)` at any depth. */
export function readGoTest(stdout: string): RunnerReport {
  const passed: string[] = [];
  const failed: string[] = [];
  for (const match of stdout.matchAll(/^\s*--- (PASS|FAIL): (\S+)/gm))
    (match[1] === 'PASS' ? passed : failed).push(match[2] ?? '');
  // A package that does not build fails every test in it without naming them.
  if (/^(FAIL\s+\S+\s+\[build failed\]|# \S+)/m.test(stdout)) failed.push('(build failed)');
  return report(passed, failed);
}

/** `cargo test`: `test path::name ... ok`; a crate that does not compile names no test. */
export function readCargo(stdout: string, stderr: string): RunnerReport {
  const passed: string[] = [];
  const failed: string[] = [];
  for (const match of `${stdout}\n${stderr}`.matchAll(/^test (.+?) \.\.\. (ok|FAILED|ignored)/gm)) {
    if (match[2] === 'ok') passed.push(match[1] ?? '');
    else if (match[2] === 'FAILED') failed.push(match[1] ?? '');
  }
  if (/^error(\[E\d+\])?: /m.test(stderr)) failed.push('(compile failed)');
  return report(passed, failed);
}

/**
 * Why a report command cannot show what a fix repairs, or null. cargo stops at the first test binary
 * that fails, so at the start the binaries after it never run, and their tests would read as
 * fail-to-pass though nothing failed (and a task's counts would shrink with every failure).
 */
export function reportCommandProblem(runner: RunnerName, command: string): string | null {
  if (runner === 'cargo' && !/(^|\s)--no-fail-fast(\s|$)/.test(command))
    return `\`${command}\` stops at the first failing test binary: add --no-fail-fast, so every test runs at the start too`;
  return null;
}

export function readRunner(runner: RunnerName, stdout: string, stderr: string): RunnerReport {
  switch (runner) {
    case 'jest':
      return readJest(stdout);
    case 'tap':
    case 'ava':
      return readTapTests(stdout);
    case 'tape':
      return readTape(stdout);
    case 'uvu':
      return readUvu(stdout, stderr);
    case 'unittest':
      return readUnittest(stdout, stderr);
    case 'go':
      return readGoTest(stdout);
    case 'cargo':
      return readCargo(stdout, stderr);
  }
}

/**
 * The tests a fix turns from failing to passing: passing at the fix and not passing at the start
 * (failed, or gone because their file no longer loads). Runners that do not name passing tests give
 * the failures at the start.
 */
export function failToPass(atFix: RunnerReport, atStart: RunnerReport): string[] {
  if (!atFix.namesPassing || !atStart.namesPassing)
    return atStart.failed.filter((name) => !atFix.failed.includes(name));
  const passingAtStart = new Set(atStart.passed);
  return atFix.passed.filter((name) => !passingAtStart.has(name));
}

/**
 * The fail-to-pass names a second run of the start confirms: a test that failed once (a subprocess
 * timing out under load) and passes again is flaky, and the fix did not repair it.
 */
export function repeatedAtStart(names: string[], again: RunnerReport): string[] {
  return again.namesPassing
    ? names.filter((name) => !again.passed.includes(name))
    : names.filter((name) => again.failed.includes(name));
}
