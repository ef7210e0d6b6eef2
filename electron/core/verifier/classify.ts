import type { VerifyStatus } from './types';
import type { TestOutcome } from './parsers/outcome';
import type { RunProcessResult } from '../basics/processTree';
import type { RunnerKind } from './runnerFlags';

export interface Classification {
  status: VerifyStatus;
  reason: string | null;
}

/**
 * PASS, FAIL or INFRA_ERROR (the command could not run at all). Only exit 0 passes, and even then
 * a JUnit report with failures makes it a FAIL.
 */
export function classify(
  run: RunProcessResult,
  runner: RunnerKind,
  outcome: TestOutcome | null,
  timeoutMs: number,
  sandboxed: boolean,
): Classification {
  if (run.cancelled) return { status: 'INFRA_ERROR', reason: 'cancelled before the tests finished' };
  if (run.spawnError) return { status: 'INFRA_ERROR', reason: `the command could not start: ${run.spawnError}` };
  if (run.flooded)
    return {
      status: 'FAIL',
      reason: `the test command wrote more than ${Math.round(run.outputBytes / 2 ** 20)} MB of output and was killed with its whole process tree`,
    };
  if (run.timedOut)
    return {
      status: 'FAIL',
      reason: `timed out after ${Math.round(timeoutMs / 1000)} s; the whole process tree was killed`,
    };
  const firstLine = run.output.trimStart().split('\n')[0] ?? '';
  if (sandboxed && run.exitCode === 1 && firstLine.startsWith('bwrap: ')) {
    if (/execvp/.test(firstLine))
      return { status: 'INFRA_ERROR', reason: `command not found inside the sandbox: ${firstLine.slice(7)}` };
    return { status: 'INFRA_ERROR', reason: `the sandbox failed: ${firstLine.slice(7, 300)}` };
  }
  if (run.exitCode === 126 || run.exitCode === 127)
    return {
      status: 'INFRA_ERROR',
      reason: `the command could not be run (exit ${run.exitCode}): ${firstLine.slice(0, 200)}`,
    };
  const missingModule = /No module named (pytest|[\w.]+)$/m.exec(run.output);
  if (runner === 'pytest' && missingModule && missingModule[1] === 'pytest') {
    return { status: 'INFRA_ERROR', reason: 'pytest is not installed for this Python interpreter' };
  }
  if (runner === 'pytest' && (run.exitCode === 3 || run.exitCode === 4)) {
    return {
      status: 'INFRA_ERROR',
      reason: `pytest ${run.exitCode === 3 ? 'hit an internal error' : 'was called with bad arguments'}: ${lastMeaningfulLine(run.output)}`,
    };
  }
  if (runner === 'pytest' && run.exitCode === 5) return { status: 'FAIL', reason: 'pytest collected no tests' };
  if (run.exitCode === 0 && run.signal === null) {
    if (outcome && outcome.counts.failed > 0)
      return { status: 'FAIL', reason: `exit 0 but the report lists ${outcome.counts.failed} failure(s)` };
    return { status: 'PASS', reason: null };
  }
  if (run.signal) return { status: 'FAIL', reason: `the test command was killed by ${run.signal}` };
  return { status: 'FAIL', reason: null };
}

function lastMeaningfulLine(output: string): string {
  return (
    output
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1)
      ?.slice(0, 300) ?? ''
  );
}
