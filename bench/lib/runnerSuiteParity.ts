/**
 * The runner rows of the parity bench: every runner of test-support/runnerCases.ts that installs here,
 * its generated suite run bare with the runner's own report and through verify() (no sandbox: the
 * suites link node_modules from outside the folder the sandbox would show), compared.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verify } from '../../electron/core/verifier/verify';
import type { TestCounts } from '../../electron/core/verifier/types';
import { ensureRunnerCache } from '../../test-support/runnerCache';
import {
  caseMatch,
  missingFor,
  referenceEnvOf,
  resolveArgv,
  runCaptured,
  runnerEnv,
  RUNNER_CASES,
  writeCaseSuite,
  type CaseMatch,
  type RunnerCase,
} from '../../test-support/runnerCases';

export interface RunnerSuiteRow {
  runner: string;
  command: string;
  /** The runner's own report: what made it, and its counts. */
  reference: { what: string; counts: TestCounts; failures: string[] };
  lathe: {
    status: string;
    resultsFrom: string | null;
    counts: TestCounts | null;
    firstFailure: { testId: string; message: string; location: string | null } | null;
    tests: number | null;
    ms: number;
  };
  match: CaseMatch;
  equal: boolean;
}

export interface RunnerSuiteSkip {
  runner: string;
  skipped: string;
}

/** Where a suite's modules come from (the app's node_modules, the runner cache's when it installed) and where it is written. */
interface SuiteFolders {
  appRoot: string;
  scratch: string;
  cacheDir: string | null;
}

/** The runner's own report of its suite, made by its reference command. */
function referenceReport(
  testCase: RunnerCase,
  dir: string,
  fill: { report: string; scratch: string },
  scratch: string,
) {
  const env = runnerEnv(scratch);
  const referenceEnv = referenceEnvOf(testCase, env, dir, fill);
  return testCase.reference.read(
    runCaptured(dir, resolveArgv(testCase.reference.argv, dir, fill), referenceEnv).output,
    fill.report,
    dir,
  );
}

/** The test command as the table shows it: no `bin:`, no absolute node, no scratch path. */
const shownCommand = (command: string[]) =>
  command
    .map((arg) =>
      arg
        .replace(/^bin:/, '')
        .replace(process.execPath, 'node')
        .replace(/\{scratch\}\/\S+/, 'DIR'),
    )
    .join(' ');

/** One runner's generated suite, run with the runner's own report and through verify(), compared. */
async function suiteRow(testCase: RunnerCase, folders: SuiteFolders): Promise<RunnerSuiteRow> {
  const { appRoot, scratch, cacheDir } = folders;
  const dir = writeCaseSuite(testCase, scratch, {
    app: path.join(appRoot, 'node_modules'),
    cache: cacheDir ? path.join(cacheDir, 'node_modules') : null,
  });
  const fill = { report: `${dir}.report`, scratch: `${dir}.scratch` };
  const reference = referenceReport(testCase, dir, fill, scratch);
  const started = performance.now();
  const result = await verify({
    workDir: dir,
    argv: resolveArgv(testCase.command, dir, fill),
    timeoutMs: 300_000,
    artifactRoot: path.join(scratch, 'artifacts'),
    isolation: 'none',
  });
  const ms = Math.round(performance.now() - started);
  const failures = excerptFailures(result.firstFailure, result.excerpt);
  const match = caseMatch({ counts: result.counts, failures }, reference, testCase.dottedIds);
  return {
    runner: testCase.runner,
    command: shownCommand(testCase.command),
    reference: {
      what: testCase.reference.what,
      counts: reference.counts,
      failures: reference.failures.map((failure) => failure.testId),
    },
    lathe: {
      status: result.status,
      resultsFrom: result.resultsFrom,
      counts: result.counts,
      firstFailure: result.firstFailure,
      tests: result.tests?.length ?? null,
      ms,
    },
    match,
    equal: match.counts && match.failures && match.messages,
  };
}

export async function runnerSuiteParity(
  appRoot: string,
  log: (line: string) => void,
): Promise<{ rows: RunnerSuiteRow[]; skipped: RunnerSuiteSkip[] }> {
  const cache = ensureRunnerCache();
  const cacheDir = 'dir' in cache ? cache.dir : null;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-runner-parity-'));
  const rows: RunnerSuiteRow[] = [];
  const skipped: RunnerSuiteSkip[] = [];
  try {
    for (const testCase of RUNNER_CASES) {
      const missing = missingFor(testCase.needs, cacheDir);
      if (missing) {
        skipped.push({
          runner: testCase.runner,
          skipped: 'unavailable' in cache && testCase.needs === 'cache' ? `${missing}: ${cache.unavailable}` : missing,
        });
        continue;
      }
      log(`${testCase.runner}: `);
      const row = await suiteRow(testCase, { appRoot, scratch, cacheDir });
      rows.push(row);
      log(`${row.equal ? 'equal' : 'DIFFERENT'} (${row.lathe.resultsFrom ?? 'nothing read'}, ${row.lathe.ms} ms)\n`);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { rows, skipped };
}

/**
 * Every failure Lathe read, named and with its message, as the excerpt shows them (`1) id` then the
 * message's lines): verify() returns only the first as data, and the excerpt is what a model sees.
 */
function excerptFailures(
  first: { testId: string; message: string } | null,
  excerpt: string,
): { testId: string; message: string }[] {
  const section = excerpt.split('\n\nLast lines of the output:')[0] ?? '';
  const start = section.indexOf('Failing tests (');
  if (start === -1) return first ? [first] : [];
  const failures: { testId: string; message: string }[] = [];
  for (const line of section.slice(start).split('\n').slice(1)) {
    const head = /^(\d+)\) (.*)$/.exec(line);
    if (head) failures.push({ testId: head[2] as string, message: '' });
    else if (failures.length > 0 && /^ {3}/.test(line) && !/^ {3}at /.test(line))
      (failures.at(-1) as { message: string }).message += `${line.trim()}\n`;
  }
  return failures;
}

const countsText = (counts: TestCounts | null) =>
  counts ? `${counts.passed}/${counts.failed}/${counts.skipped}` : 'none';

/** The runner table in Markdown (docs/workspace.md). */
export function runnerSuiteTable(rows: RunnerSuiteRow[], skipped: RunnerSuiteSkip[]): string {
  const lines = [
    '| runner | test command | runner’s own report | its counts | Lathe: counts (read from) | failing tests and messages equal | equal |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.runner} | \`${row.command}\` | ${row.reference.what} | ${countsText(row.reference.counts)} | ${countsText(row.lathe.counts)} (${row.lathe.resultsFrom ?? 'nothing read'}) | ${row.match.failures && row.match.messages ? 'yes' : '**no**'} | ${row.equal ? 'yes' : '**no**'} |`,
    );
  }
  for (const skip of skipped) lines.push(`| ${skip.runner} | — | — | — | not run here: ${skip.skipped} | — | — |`);
  return lines.join('\n');
}
