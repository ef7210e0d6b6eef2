/**
 * Running one candidate: at the fix the suite passes, with revert_files put back at least one test
 * fails, on two runs; then the end-to-end check a corpus user does (materialize.sh, setup, test fails, gold patch,
 * test passes). Shell commands run as the task will run them, through bash in the checkout.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Candidate } from './candidates';
import { git } from './gitHistory';
import { failToPass, readRunner, repeatedAtStart, type RunnerName, type RunnerReport } from './runnerReports';

export interface RunSpec {
  runner: RunnerName;
  setup: string;
  test: string;
  /** The command whose output names the tests (the test command with the runner's report flags). */
  report: string;
  /** The report command exits as the test command does, so measuring runs only it; the end-to-end check still runs the test command. */
  reportGrades: boolean;
  timeoutSeconds: number;
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
  seconds: number;
}

export function shell(command: string, cwd: string, timeoutSeconds: number): ShellRun {
  const started = performance.now();
  const env = { ...process.env, CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1', npm_config_update_notifier: 'false' };
  const result = spawnSync('bash', ['-c', command], {
    cwd,
    env,
    encoding: 'utf8',
    timeout: timeoutSeconds * 1000,
    maxBuffer: 256 * 1024 * 1024,
  });
  return {
    code: result.status,
    stdout: result.stdout ?? '',
    stderr: result.stderr ?? '',
    seconds: (performance.now() - started) / 1000,
  };
}

const tail = (run: ShellRun) => `${run.stdout}\n${run.stderr}`.trim().split('\n').slice(-6).join(' | ');

/** The files a setup depends on; a checkout whose key is unchanged keeps its installed dependencies. */
function setupKey(dir: string, setup: string): string {
  const hash = createHash('sha256').update(setup);
  for (const name of ['package.json', 'package-lock.json', 'yarn.lock', 'pnpm-lock.yaml']) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) hash.update(name).update(fs.readFileSync(file));
  }
  return hash.digest('hex');
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; reason: string };

interface Checkout {
  dir: string;
  lastSetupKey: string | null;
}

export function createCheckout(gitDir: string, dir: string): Checkout {
  const cloned = git(gitDir, ['clone', '-q', '--no-checkout', gitDir, dir], path.dirname(dir));
  if (!cloned.ok) throw new Error(`cannot clone ${gitDir}: ${cloned.stderr.trim()}`);
  return { dir, lastSetupKey: null };
}

function runSetup(checkout: Checkout, spec: RunSpec): Outcome<null> {
  if (spec.setup.trim() === '') return { ok: true, value: null };
  const key = setupKey(checkout.dir, spec.setup);
  if (key === checkout.lastSetupKey) return { ok: true, value: null };
  fs.rmSync(path.join(checkout.dir, 'node_modules'), { recursive: true, force: true });
  const run = shell(spec.setup, checkout.dir, spec.timeoutSeconds);
  if (run.code !== 0) return { ok: false, reason: `setup failed: ${tail(run)}` };
  const changed = git('', ['status', '--porcelain', '--untracked-files=no'], checkout.dir).stdout.trim();
  if (changed) return { ok: false, reason: `setup changed tracked files: ${changed.split('\n').join(', ')}` };
  checkout.lastSetupKey = key;
  return { ok: true, value: null };
}

function runTests(dir: string, spec: RunSpec): { test: ShellRun; report: RunnerReport } {
  // With reportGrades the report run's exit code stands for the test command's (a slow suite runs once).
  const reportRun = shell(spec.report, dir, spec.timeoutSeconds);
  const test = spec.report === spec.test || spec.reportGrades ? reportRun : shell(spec.test, dir, spec.timeoutSeconds);
  return { test, report: readRunner(spec.runner, reportRun.stdout, reportRun.stderr) };
}

export interface Measured {
  failToPass: string[];
  passingAtFix: number;
  runtimeSeconds: number;
}

/** The first check: the fix passes, the start fails, and the runner names what the fix repairs. */
export function measureCandidate(checkout: Checkout, candidate: Candidate, spec: RunSpec): Outcome<Measured> {
  const { sha, parents } = candidate.commit;
  const parent = parents[0] ?? '';
  const moved = git('', ['checkout', '-q', '-f', '--detach', sha], checkout.dir);
  if (!moved.ok) return { ok: false, reason: `checkout: ${moved.stderr.trim()}` };
  git('', ['clean', '-qffdx', '-e', 'node_modules', '-e', 'target'], checkout.dir);
  const setup = runSetup(checkout, spec);
  if (!setup.ok) return setup;
  const atFix = runTests(checkout.dir, spec);
  if (atFix.test.code !== 0) return { ok: false, reason: `the suite fails at the fix: ${tail(atFix.test)}` };
  for (const file of candidate.revertFiles) {
    const inParent = git('', ['cat-file', '-e', `${parent}:${file}`], checkout.dir).ok;
    const reverted = inParent
      ? git('', ['checkout', '-q', parent, '--', file], checkout.dir)
      : git('', ['rm', '-q', '-f', '--', file], checkout.dir);
    if (!reverted.ok) return { ok: false, reason: `revert ${file}: ${reverted.stderr.trim()}` };
  }
  const atStart = runTests(checkout.dir, spec);
  if (atStart.test.code === 0) return { ok: false, reason: 'the suite passes at the start (no test needs the fix)' };
  const names = failToPass(atFix.report, atStart.report);
  if (names.length === 0)
    return {
      ok: false,
      reason: `the suite fails at the start but the runner names no test the fix repairs: ${tail(atStart.test)}`,
    };
  // A loaded machine fails a timing test now and then: only failures a second run repeats are the fix's.
  const again = runTests(checkout.dir, spec);
  const repeated = repeatedAtStart(names, again.report);
  if (again.test.code === 0 || repeated.length === 0)
    return {
      ok: false,
      reason: `the start's failures did not repeat on a second run (flaky, not repaired by the fix): ${names.slice(0, 5).join(', ')}`,
    };
  return {
    ok: true,
    value: {
      failToPass: repeated,
      passingAtFix: atFix.report.passedCount,
      runtimeSeconds: Math.round(atFix.test.seconds),
    },
  };
}

/** The user's path: materialize.sh, setup, the test fails, `git apply` the gold patch, it passes. */
export function endToEnd(
  corpusDir: string,
  taskId: string,
  goldPatch: string,
  spec: RunSpec,
  workDir: string,
): Outcome<null> {
  const dest = path.join(workDir, `e2e-${taskId}`);
  fs.rmSync(dest, { recursive: true, force: true });
  const made = shell(
    `bash ${JSON.stringify(path.join(corpusDir, 'materialize.sh'))} ${JSON.stringify(corpusDir)} ${taskId} ${JSON.stringify(dest)}`,
    workDir,
    spec.timeoutSeconds,
  );
  if (made.code !== 0) return { ok: false, reason: `materialize.sh: ${tail(made)}` };
  try {
    if (spec.setup.trim() !== '') {
      const setup = shell(spec.setup, dest, spec.timeoutSeconds);
      if (setup.code !== 0) return { ok: false, reason: `setup: ${tail(setup)}` };
      if (git('', ['status', '--porcelain', '--untracked-files=no'], dest).stdout.trim())
        return { ok: false, reason: 'setup changed tracked files' };
    }
    if (shell(spec.test, dest, spec.timeoutSeconds).code === 0)
      return { ok: false, reason: 'the test command passes at the start' };
    fs.writeFileSync(path.join(workDir, `${taskId}.patch`), goldPatch);
    const applied = git('', ['apply', path.join(workDir, `${taskId}.patch`)], dest);
    if (!applied.ok) return { ok: false, reason: `git apply: ${applied.stderr.trim()}` };
    const solved = shell(spec.test, dest, spec.timeoutSeconds);
    if (solved.code !== 0) return { ok: false, reason: `the test command fails with the gold patch: ${tail(solved)}` };
    return { ok: true, value: null };
  } finally {
    fs.rmSync(dest, { recursive: true, force: true });
  }
}
