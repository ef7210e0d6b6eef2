import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { splitCommand } from '../../config/resolveConfig';
import { verify } from '../../verifier/verify';
import type { IsolationLevel, TestCounts, VerifyResult } from '../../verifier/types';
import type { CorpusTask } from '../corpus';
import {
  compareWithReference,
  excerptShowsEveryFailure,
  inventoryMatches,
  type IdStyle,
  type ParityCheck,
} from './compare';
import { junitReference, mochaJsonReference, vitestJsonReference, type ReferenceResult } from './referenceReports';

/** One corpus task's test command, run bare with the runner's own structured reporter and through verify(). */
export interface ParityRow {
  task: string;
  repo: string;
  runner: string;
  command: string;
  /** `tests`: how many tests the runner's report lists. */
  bare: {
    command: string;
    exitCode: number | null;
    counts: TestCounts;
    firstFailure: ReferenceResult['firstFailure'];
    tests: number;
    ms: number;
  };
  /** `tests`: the length of Lathe's test inventory, null when it had none. */
  lathe: {
    exitCode: number | null;
    status: VerifyResult['status'];
    resultsFrom: string | null;
    isolation: IsolationLevel;
    counts: TestCounts | null;
    firstFailure: VerifyResult['firstFailure'];
    tests: number | null;
    excerpt: string;
    ms: number;
  };
  /** Counts and first failure equal, the excerpt names every failure the runner reports with its message, and the inventory lists the report's tests. */
  match: ParityCheck & { excerpt: boolean; inventory: boolean };
  /** Why the row ran outside the read-only sandbox, when it did. */
  note: string | null;
}

interface Reference {
  command: string;
  idStyle: IdStyle;
  read(stdout: string, reportFile: string, repoDir: string): ReferenceResult;
}

/** The same tests, with the runner's own structured reporter: mocha's json, vitest's json, pytest's JUnit. */
export function referenceFor(task: CorpusTask, repoDir: string, reportFile: string): Reference {
  const command = task.test_command.trim();
  if (task.runner === 'mocha') {
    const script =
      command === 'npm test'
        ? (JSON.parse(fs.readFileSync(path.join(repoDir, 'package.json'), 'utf8')) as { scripts: { test: string } })
            .scripts.test
        : command;
    const json = script.replace(/\s(?:--reporter|-R)[ =]\S+/g, '').replace(/\bmocha\b/, 'mocha --reporter json');
    return { command: json, idStyle: 'exact', read: (stdout) => mochaJsonReference(stdout, repoDir) };
  }
  if (task.runner === 'vitest')
    return {
      command: `${command} --reporter=json --outputFile.json=${reportFile}`,
      idStyle: 'exact',
      read: () => vitestJsonReference(fs.readFileSync(reportFile, 'utf8'), repoDir),
    };
  if (task.runner === 'pytest')
    return {
      command: `${command} --junitxml=${reportFile}`,
      idStyle: 'pytest-dotted',
      read: () => junitReference(fs.readFileSync(reportFile, 'utf8'), 'pytest'),
    };
  throw new Error(`no structured reporter known for runner ${task.runner}`);
}

function runShell(
  command: string,
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; stdout: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const env = {
      ...process.env,
      CI: 'true',
      NO_COLOR: '1',
      FORCE_COLOR: '0',
      PATH: `${path.join(cwd, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH ?? ''}`,
    };
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started });
    });
  });
}

/** Both runs of one task: the runner's own report and Lathe's full result. */
export interface BareAndVerified {
  command: string;
  idStyle: IdStyle;
  bare: { exitCode: number | null; ms: number; report: ReferenceResult };
  verified: VerifyResult;
  /** verify()'s wall time (the second attempt's, when it ran in a checkout). */
  ms: number;
  note: string | null;
}

/**
 * Runs the task's test command twice at its starting state (failing): bare with the runner's own
 * structured reporter, and through verify() as a workflow would. A command that writes into the
 * repository (a build step) cannot run in the read-only sandbox: it is run again in a temporary
 * checkout, and `note` says so.
 */
export async function runBareAndVerify(
  task: CorpusTask,
  repoDir: string,
  options: { artifactRoot: string; timeoutMs?: number },
): Promise<BareAndVerified> {
  const timeoutMs = options.timeoutMs ?? 300_000;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-parity-'));
  try {
    const reference = referenceFor(task, repoDir, path.join(scratch, 'report'));
    const bare = await runShell(reference.command, repoDir, timeoutMs);
    const report = reference.read(bare.stdout, path.join(scratch, 'report'), repoDir);
    const request = {
      workDir: repoDir,
      argv: splitCommand(task.test_command),
      timeoutMs,
      artifactRoot: options.artifactRoot,
    };
    let started = performance.now();
    let verified = await verify(request);
    let note: string | null = null;
    if (verified.counts === null && /EROFS|Read-only file system/.test(verified.tail)) {
      note =
        'the command writes into the repository (a build step), so it ran in a temporary checkout instead of the read-only sandbox';
      started = performance.now();
      verified = await verify({ ...request, isolation: 'checkout' });
    }
    return {
      command: reference.command,
      idStyle: reference.idStyle,
      bare: { exitCode: bare.code, ms: Math.round(bare.ms), report },
      verified,
      ms: Math.round(performance.now() - started),
      note,
    };
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** The parity row of one task: runBareAndVerify, compared. */
export async function runnerParity(
  task: CorpusTask,
  repoDir: string,
  options: { artifactRoot: string; timeoutMs?: number },
): Promise<ParityRow> {
  const { command, idStyle, bare, verified: ours, ms, note } = await runBareAndVerify(task, repoDir, options);
  const theirs = bare.report;
  return {
    task: task.id,
    repo: task.repo,
    runner: task.runner,
    command: task.test_command,
    bare: {
      command,
      exitCode: bare.exitCode,
      counts: theirs.counts,
      firstFailure: theirs.firstFailure,
      tests: theirs.tests.length,
      ms: bare.ms,
    },
    lathe: {
      exitCode: ours.exitCode,
      status: ours.status,
      resultsFrom: ours.resultsFrom,
      isolation: ours.isolation.level,
      counts: ours.counts,
      firstFailure: ours.firstFailure,
      tests: ours.tests?.length ?? null,
      excerpt: ours.excerpt,
      ms,
    },
    match: {
      ...compareWithReference(ours, theirs, idStyle),
      excerpt: excerptShowsEveryFailure(ours.excerpt, theirs, idStyle),
      inventory: inventoryMatches(ours.tests, theirs, idStyle),
    },
    note,
  };
}

const countsText = (counts: TestCounts | null) =>
  counts ? `${counts.passed}/${counts.failed}/${counts.skipped}` : 'none';
const yes = (value: boolean) => (value ? 'yes' : '**no**');

/** The parity table in Markdown: bare vs Lathe, counts (passed/failed/skipped) and the first failure. */
export function parityTable(rows: ParityRow[]): string {
  const lines = [
    '| repo (runner) | test command | bare: counts | Lathe: counts (read from) | counts equal | first failure (bare) | Lathe: same name | same message | Lathe: location | excerpt names every failure | inventory lists the report’s tests |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const first = row.bare.firstFailure
      ? `${row.bare.firstFailure.testId.slice(0, 90)}${row.bare.firstFailure.testId.length > 90 ? '…' : ''}`
      : 'none';
    const from = `${row.lathe.resultsFrom ?? 'nothing read'}${row.lathe.isolation === 'bwrap' ? '' : `, ${row.lathe.isolation}`}`;
    lines.push(
      `| ${row.repo} (${row.runner}) | \`${row.command.length > 50 ? `${row.command.slice(0, 49)}…` : row.command}\` | ${countsText(row.bare.counts)} | ${countsText(row.lathe.counts)} (${from}) | ${yes(row.match.counts)} | ${first.replace(/\|/g, '\\|')} | ${yes(row.match.name)} | ${yes(row.match.message)} | ${row.lathe.firstFailure?.location ?? '—'} | ${yes(row.match.excerpt)} (${row.bare.counts.failed}, ${row.lathe.excerpt.length} chars) | ${yes(row.match.inventory)} (${row.lathe.tests ?? 'none'}) |`,
    );
  }
  return lines.join('\n');
}
