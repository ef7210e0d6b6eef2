import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowName } from '../../shared/schemas/workflowName';
import type { RunStatus } from '../../shared/schemas/run';
import { resolveRunConfig } from '../../electron/core/config/resolveConfig';
import { createDefaultDeps, createEngineEnv } from '../../electron/core/engine/defaultDeps';
import { startRun } from '../../electron/core/engine/runner';
import { APP_ROOT, makeExampleRepo, writeReplay } from '../exampleRepo';
import { makeTempDir } from '../tempRepo';
import { createFaultyModel, type FaultLog } from './faultyModel';

export interface CaseResult {
  workflow: WorkflowName;
  rate: number;
  seed: number;
  status: RunStatus | 'hang' | 'crash';
  reason: string;
  green: boolean;
  problems: string[];
  faults: FaultLog;
  ms: number;
}

const DEFINED: RunStatus[] = ['complete', 'failed', 'stuck', 'aborted'];
const CASE_LIMIT_MS = 180_000;

function listing(dir: string): string[] {
  return fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : [];
}

/** Do the example's own tests pass on the run's final tree? (A corrupted edit to the tests cannot fake it.) */
function originalTestsPass(repo: ReturnType<typeof makeExampleRepo>, ref: string): boolean {
  const scratch = makeTempDir('lathe-green-');
  try {
    repo.git('worktree', 'add', '--quiet', '--detach', scratch, ref);
    fs.copyFileSync(
      path.join(APP_ROOT, 'resources', 'examples', 'js-stats', 'test', 'stats.test.js'),
      path.join(scratch, 'test', 'stats.test.js'),
    );
    return spawnSync(process.execPath, ['--test'], { cwd: scratch, stdio: 'ignore', timeout: 30_000 }).status === 0;
  } finally {
    repo.git('worktree', 'remove', '--force', scratch);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

/** One seeded run of a workflow on the js-stats example with a fault-injecting model. */
export async function runFaultCase(workflow: WorkflowName, rate: number, seed: number): Promise<CaseResult> {
  const started = Date.now();
  const parent = makeTempDir('lathe-fault-');
  const repo = makeExampleRepo('js-stats');
  const dataDir = path.join(parent, 'data');
  const sentinel = path.join(parent, 'sentinel.txt');
  fs.writeFileSync(sentinel, 'untouched\n');
  // The faulty router answers every call; the run still names a model that passes the start checks.
  const model = writeReplay(parent, 'faults', []);
  const before = { main: repo.git('rev-parse', 'main'), parent: listing(parent) };
  const { router, log } = createFaultyModel({ rate, seed });
  const problems: string[] = [];
  let status: CaseResult['status'] = 'crash';
  let reason = '';
  let green = false;
  // A `../` edit from the run's worktree would land beside it, in Lathe's folder of worktrees.
  let worktreeParent: string | null = null;
  try {
    const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: workflow, model });
    const env = createEngineEnv({
      appRoot: APP_ROOT,
      dataDir,
      retryBackoffMs: 1,
      deps: { ...createDefaultDeps(), createModels: () => router },
    });
    const run = startRun(env, {
      repoRoot: repo.dir,
      goal: fs.readFileSync(path.join(repo.dir, 'lathe.goal.txt'), 'utf8'),
      config,
    });
    const outcome = await Promise.race([
      run.then((state) => ({ state })),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), CASE_LIMIT_MS)),
    ]);
    if (outcome === null) {
      status = 'hang';
    } else {
      const state = outcome.state;
      worktreeParent = state.workspace ? path.dirname(state.workspace.workDir) : null;
      status = state.status;
      reason = state.result?.reason ?? '';
      if (!DEFINED.includes(state.status)) problems.push(`undefined status ${state.status}`);
      const limits = state.config.limits;
      for (const plan of state.plans)
        for (const step of plan.steps)
          if (step.attempts > limits.max_attempts_per_task)
            problems.push(`${step.id}: ${step.attempts} attempts > ${limits.max_attempts_per_task}`);
      if (limits.hard_stop_verify_loops > 0 && state.counters.total_verify_loops > limits.hard_stop_verify_loops)
        problems.push('verify loops over the hard stop');
      green = state.status === 'complete' && state.branch !== null && originalTestsPass(repo, state.branch);
    }
  } catch (error) {
    problems.push(`crash: ${error instanceof Error ? error.stack : String(error)}`);
  }
  if (repo.git('rev-parse', 'main') !== before.main) problems.push("the user's branch moved");
  if (repo.git('status', '--porcelain') !== '') problems.push("the user's work tree changed");
  if (fs.readFileSync(sentinel, 'utf8') !== 'untouched\n') problems.push('a file outside the repo changed');
  const outside = listing(parent).filter((entry) => !entry.startsWith('data'));
  if (outside.join('\n') !== before.parent.filter((entry) => !entry.startsWith('data')).join('\n'))
    problems.push(`files appeared outside the repo: ${outside.join(', ')}`);
  if (fs.existsSync('/tmp/lathe-absolute-escape.txt')) problems.push('an absolute path outside the repo was written');
  if (
    (worktreeParent && fs.existsSync(path.join(worktreeParent, 'outside-the-repo.txt'))) ||
    fs.existsSync(path.join(path.dirname(repo.dir), 'outside-the-repo.txt'))
  )
    problems.push('a ../ path was written');
  repo.remove();
  fs.rmSync(parent, { recursive: true, force: true });
  return { workflow, rate, seed, status, reason, green, problems, faults: log, ms: Date.now() - started };
}

/** Runs cases `concurrency` at a time. */
export async function sweep(
  cases: { workflow: WorkflowName; rate: number; seed: number }[],
  concurrency: number,
  onCase: (result: CaseResult) => void = () => {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const item = cases[next++];
      if (!item) break;
      const result = await runFaultCase(item.workflow, item.rate, item.seed);
      results.push(result);
      onCase(result);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return results;
}

export function greenShare(
  results: CaseResult[],
  workflow: WorkflowName,
  rate: number,
): { runs: number; green: number; share: number } {
  const matching = results.filter((result) => result.workflow === workflow && result.rate === rate);
  const green = matching.filter((result) => result.green).length;
  return { runs: matching.length, green, share: matching.length === 0 ? 0 : green / matching.length };
}
