/**
 * Engine bench: `npx tsx bench/engine.ts`. Prints a table and writes bench/results/engine.json.
 * - pure transition cost (nextAction + applyOutcome), no I/O
 * - engine overhead per transition with the real run store and git, five runs, split into run store,
 *   git and the rest (the bench wraps both to time them)
 * - a 10-task replay run end to end on real git and the real Verifier, test time excluded
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ActionOutcome, EngineAction } from '../shared/engine/actions';
import { configFromWorkflow } from '../shared/engine/configFromWorkflow';
import { initialState } from '../shared/engine/initialState';
import { applyOutcome } from '../shared/engine/machine';
import { nextAction } from '../shared/engine/nextAction';
import { WORKFLOWS } from '../shared/engine/workflows';
import type { RunState } from '../shared/engine/runState';
import { createDefaultDeps, createEngineEnv } from '../electron/core/engine/defaultDeps';
import type { EngineDeps } from '../electron/core/engine/engineDeps';
import { startRun } from '../electron/core/engine/runner';
import { readLog, RunStore } from '../electron/core/engine/runStore';
import { resolveRunConfig } from '../electron/core/config/resolveConfig';
import { prepareExampleRepo } from '../electron/core/cli/commands/demo';
import type { ModelRouter } from '../electron/core/llm/types';
import { figure, report } from './lib/results';
import { spread, spreadText } from './lib/stats';
import { agentOutputOutcome } from '../shared/engine/agentOutputs';

const TASKS = 10;
const OVERHEAD_RUNS = 5;
const appRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-engine-'));

const plan = {
  plan_id: 'plan_0001',
  tasks: Array.from({ length: TASKS }, (_, index) => ({
    id: `T${index + 1}`,
    title: `Add helper ${index + 1}`,
    rationale: 'bench',
    acceptance: 'tests pass',
    artifacts: [`src/helper${index + 1}.js`],
  })),
};
const codeFor = (task: number) => ({
  edits: [{ path: `src/helper${task}.js`, content: `export const helper${task} = (x) => x + ${task};\n` }],
});

/** Scripted outcomes for the pure machine: every effect succeeds at once. */
function script(action: EngineAction, state: RunState, step: number): ActionOutcome {
  const task = Number(state.current_step_id?.slice(1) ?? 1);
  switch (action.kind) {
    case 'prepare':
      return {
        kind: 'prepared',
        workspace: {
          runId: 'r',
          repoRoot: '/r',
          workDir: '/r',
          mode: 'worktree',
          branch: 'lathe/r',
          baseCommit: 'b',
          originalBranch: 'main',
          protectedPaths: [],
        },
        head: 'b',
        test_command: ['node', '--test'],
      };
    case 'agent': {
      const usage = { prompt_tokens: 1, completion_tokens: 1 };
      const output =
        action.purpose === 'plan'
          ? plan
          : action.purpose === 'code'
            ? codeFor(task)
            : { task_id: `T${task}`, passed: true, report: 'ok' };
      const typed = agentOutputOutcome(action.purpose, output, { role: action.role, calls: 1, usage });
      return 'invalid' in typed ? { kind: 'fatal', code: 'INTERNAL', message: typed.invalid } : typed;
    }
    case 'apply':
      return { kind: 'applied', commit: `c${step}`, head: `c${step}`, files: [`src/helper${task}.js`] };
    case 'verify':
      return {
        kind: 'verified',
        purpose: action.purpose,
        test: {
          status: 'PASS',
          passed: true,
          exit_code: 0,
          counts: null,
          first_failure: null,
          results_from: null,
          report: '',
          excerpt: '',
          tail: '',
          reason: null,
          isolation: 'none',
          duration_ms: 0,
          verify_run_id: 'v',
          artifact_dir: '',
          coverage_percent: null,
          failed_phase: null,
          work_dir_writes: null,
          inventory: null,
          tools: [],
        },
      };
    default:
      return { kind: 'internal' };
  }
}

function pureTransitions(): { perTransitionUs: number; transitions: number } {
  const workflow = WORKFLOWS.minimal;
  const rounds = 300;
  let transitions = 0;
  const started = performance.now();
  for (let round = 0; round < rounds; round++) {
    let state = initialState({
      runId: 'r',
      goal: 'g',
      goalHash: 'h',
      config: configFromWorkflow(workflow),
      now: 't',
      nowMs: 0,
    });
    for (let step = 0; step < 500; step++) {
      const action = nextAction(state, workflow);
      if (action.kind === 'finish') break;
      state = applyOutcome(
        state,
        workflow,
        action.kind === 'internal' ? { kind: 'internal' } : script(action, state, step),
        't',
      ).state;
      transitions++;
    }
  }
  return { perTransitionUs: ((performance.now() - started) * 1000) / transitions, transitions: transitions / rounds };
}

/** A router that answers from the plan above instantly, for both the overhead and the end-to-end runs. */
function scriptedRouter(): ModelRouter {
  let coderCalls = 0;
  let testerCalls = 0;
  return {
    specFor: () => 'bench',
    dispose: async () => {},
    generate: async (request) => {
      const value =
        request.role === 'planner'
          ? plan
          : request.role === 'coder'
            ? codeFor(++coderCalls)
            : { task_id: `T${++testerCalls}`, passed: true, report: 'ok' };
      const parsed = request.schema.parse(value);
      return {
        ok: true,
        value: parsed,
        raw: '',
        droppedContext: [],
        usage: {
          model: 'bench',
          promptTokens: 1,
          completionTokens: 1,
          reusedPrefixTokens: 0,
          timeToFirstTokenMs: 0,
          totalMs: 0,
          tokensPerSecond: 0,
        },
      };
    },
  } as ModelRouter;
}

async function exampleRepo(name: string): Promise<string> {
  const repo = await prepareExampleRepo(appRoot, 'js-stats', path.join(scratch, name));
  // Green from the start, so every task's tests pass and the run covers all ten tasks.
  const stats = path.join(repo, 'src', 'stats.js');
  fs.writeFileSync(
    stats,
    fs
      .readFileSync(stats, 'utf8')
      .replace(
        '  return mean(values);',
        '  const s = [...values].sort((a, b) => a - b);\n  const m = Math.floor(s.length / 2);\n  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;',
      ),
  );
  const { default: git } = await import('isomorphic-git');
  await git.add({ fs, dir: repo, filepath: 'src/stats.js' });
  const author = { name: 'bench', email: 'bench@lathe.invalid', timestamp: 1_700_000_000, timezoneOffset: 0 };
  await git.commit({ fs, dir: repo, message: 'green', author, committer: author });
  return repo;
}

async function engineRun(
  name: string,
  deps: EngineDeps,
): Promise<{ ms: number; transitions: number; verifyMs: number; events: number; status: string }> {
  const repo = await exampleRepo(name);
  // The scripted router answers every call; the run still names a model that passes the start checks.
  const unused = path.join(scratch, 'unused.json');
  fs.writeFileSync(unused, '{"outputs": []}\n');
  const config = resolveRunConfig({ repoRoot: repo }, { workflow: 'minimal', model: `replay:${unused}` });
  const env = createEngineEnv({ appRoot, dataDir: path.join(scratch, `${name}-data`), retryBackoffMs: 1, deps });
  const started = performance.now();
  const state = await startRun(env, { repoRoot: repo, goal: 'add ten helpers', config });
  const ms = performance.now() - started;
  const log = readLog(path.join(repo, '.lathe', 'runs', state.run_id, 'log.jsonl'));
  const verifyMs = log
    .filter((event) => event.type === 'test_result')
    .reduce((total, event) => total + Number(event.data.duration_ms ?? 0), 0);
  return {
    ms,
    transitions: log.filter((event) => event.type === 'phase').length,
    verifyMs,
    events: log.length,
    status: state.status,
  };
}

/** Wall time spent inside the run store and the git facade, by the bench's own wrappers. */
const spent = { store: 0, git: 0 };
/** The same time per method name, summed over the overhead runs (details only: where the git and store time goes). */
const spentByMethod = new Map<string, { calls: number; ms: number }>();
function timedMethod(target: object, name: string, bucket: keyof typeof spent): void {
  const original = (target as Record<string, (...args: unknown[]) => unknown>)[name];
  if (typeof original !== 'function') return;
  (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const result = original.apply(this, args);
    const done = () => {
      const ms = performance.now() - started;
      spent[bucket] += ms;
      const method = spentByMethod.get(`${bucket}.${name}`) ?? { calls: 0, ms: 0 };
      spentByMethod.set(`${bucket}.${name}`, { calls: method.calls + 1, ms: method.ms + ms });
    };
    if (result instanceof Promise) return result.finally(done);
    done();
    return result;
  };
}
for (const name of ['saveState', 'append', 'savePlanSnapshot', 'writeFile'])
  timedMethod(RunStore.prototype, name, 'store');

const pure = pureTransitions();
const real = createDefaultDeps();
const git = { ...real.git };
for (const name of Object.keys(git)) timedMethod(git, name, 'git');
const instantVerify: EngineDeps['verify'] = async (request) => ({
  verifyRunId: 'v',
  status: 'PASS',
  exitCode: 0,
  signal: null,
  timedOut: false,
  durationMs: 0,
  reason: null,
  isolation: { level: 'none', detail: 'bench' },
  counts: null,
  tests: null,
  firstFailure: null,
  resultsFrom: null,
  report: '',
  excerpt: '',
  tail: '',
  coverage: null,
  build: null,
  failedPhase: null,
  workDirWrites: null,
  artifactDir: request.artifactRoot,
  logPath: '',
  manifestPath: '',
});
const overheadRuns: { perTransitionMs: number; storeMs: number; gitMs: number; restMs: number }[] = [];
for (let index = 0; index < OVERHEAD_RUNS; index++) {
  spent.store = 0;
  spent.git = 0;
  const run = await engineRun(`overhead-${index}`, {
    ...real,
    git,
    verify: instantVerify,
    createModels: scriptedRouter,
  });
  const per = (ms: number) => ms / run.transitions;
  overheadRuns.push({
    perTransitionMs: per(run.ms),
    storeMs: per(spent.store),
    gitMs: per(spent.git),
    restMs: per(run.ms - spent.store - spent.git),
  });
}
const byMethod = Object.fromEntries(
  [...spentByMethod]
    .sort((a, b) => b[1].ms - a[1].ms)
    .map(([name, { calls, ms }]) => [
      name,
      { callsPerRun: calls / OVERHEAD_RUNS, msPerRun: Math.round((ms / OVERHEAD_RUNS) * 10) / 10 },
    ]),
);
const overhead = { runs: overheadRuns, byMethod };
const endToEnd = await engineRun('e2e', { ...real, createModels: scriptedRouter });
fs.rmSync(scratch, { recursive: true, force: true });

const round = (value: number) => Math.round(value * 100) / 100;
const perTransition = spread(overheadRuns.map((run) => run.perTransitionMs));
const storePart = spread(overheadRuns.map((run) => run.storeMs));
const gitPart = spread(overheadRuns.map((run) => run.gitMs));
const restPart = spread(overheadRuns.map((run) => run.restMs));
report({
  bench: 'engine',
  figures: [
    figure('transition_pure_us', 'pure transition (nextAction + applyOutcome)', round(pure.perTransitionUs), 'µs'),
    figure(
      'transition_engine_ms',
      'engine overhead per transition (run store, git, no tests)',
      perTransition.median,
      'ms',
      { max: 5 },
      spreadText(perTransition),
    ),
    figure(
      'transition_store_ms',
      '  of which the run store (log, state.json)',
      storePart.median,
      'ms',
      undefined,
      spreadText(storePart),
    ),
    figure(
      'transition_git_ms',
      '  of which git (worktree, reset, commit per step)',
      gitPart.median,
      'ms',
      undefined,
      spreadText(gitPart),
    ),
    figure(
      'transition_rest_ms',
      '  the rest (transitions, edits, agents, context)',
      restPart.median,
      'ms',
      undefined,
      spreadText(restPart),
    ),
    figure('run_10_tasks_ms', `${TASKS}-task replay run, end to end`, Math.round(endToEnd.ms), 'ms'),
    figure('run_10_tasks_test_ms', `  of which tests (Verifier-reported)`, Math.round(endToEnd.verifyMs), 'ms'),
    figure(
      'run_10_tasks_excl_tests_ms',
      `${TASKS}-task replay run excluding test time`,
      Math.round(endToEnd.ms - endToEnd.verifyMs),
      'ms',
      { max: 10_000 },
    ),
  ],
  details: { pure, overhead, endToEnd },
});
