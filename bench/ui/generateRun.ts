import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configFromWorkflow } from '../../shared/engine/configFromWorkflow';
import { initialState } from '../../shared/engine/initialState';
import { WORKFLOWS } from '../../shared/engine/workflows';
import type { RunState } from '../../shared/engine/runState';
import type { RunLogEvent } from '../../shared/schemas/run';

export interface GeneratedRun {
  repo: string;
  runId: string;
  events: number;
  diffLines: number;
  remove(): void;
}

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'bench',
      GIT_AUTHOR_EMAIL: 'bench@lathe.invalid',
      GIT_COMMITTER_NAME: 'bench',
      GIT_COMMITTER_EMAIL: 'bench@lathe.invalid',
    },
  });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

/** A 5,000-line source file; `edited` changes every 40th line and adds a block every 500. */
function bigFile(lines: number, edited: boolean): string {
  const out: string[] = [];
  for (let line = 1; line <= lines; line++) {
    if (edited && line % 40 === 0)
      out.push(`export const value${line} = compute(${line}, { cached: true }); // changed by the run`);
    else out.push(`export const value${line} = compute(${line}); // line ${line} of the generated module`);
    if (edited && line % 500 === 0)
      out.push(
        '',
        `/** Added by step ${line / 500}. */`,
        `export function step${line / 500}() {`,
        `  return value${line} * 2;`,
        '}',
      );
  }
  return `${out.join('\n')}\n`;
}

const REPORT = Array.from({ length: 40 }, (_, index) =>
  index === 12
    ? '\u001b[31m✖ median of an even-length list (1.2ms)\u001b[39m'
    : `\u001b[32m✔\u001b[39m test ${index} passes (0.${index}ms)`,
).join('\n');

type LogEvent = Omit<RunLogEvent, 'seq' | 'ts' | 'run_id'>;

const MODEL = 'llama:/models/qwen2.5-coder-7b-q4_k_m.gguf';

/** One model call's answer, as a one-call agent_output event with its prompt and completion tokens. */
function agentOutput(
  role: LogEvent['role'],
  purpose: string,
  output: unknown,
  [prompt, completion]: [number, number],
): LogEvent {
  return {
    role,
    type: 'agent_output',
    data: { purpose, output, usage: { prompt_tokens: prompt, completion_tokens: completion }, calls: 1 },
  };
}

/** The run's opening: started, its workspace, and the Planner's plan of `stepCount` steps. */
function* runOpening(runId: string, base: string, stepCount: number): Generator<LogEvent> {
  const model = { model: MODEL };
  yield {
    role: 'engine',
    type: 'run_started',
    data: {
      goal: 'Refactor the generated module and keep every test green',
      workflow: 'supervised',
      seed: '002',
      branch_prefix: 'lathe',
      models: { planner: model, coder: model, tester: model, supervisor: model },
    },
  };
  yield {
    role: 'git',
    type: 'workspace_ready',
    data: {
      branch: `lathe/${runId}`,
      base,
      work_dir: '/tmp/bench',
      mode: 'in-place',
      test_command: ['node', '--test'],
    },
  };
  const tasks = Array.from({ length: stepCount }, (_, index) => ({
    id: `T${index + 1}`,
    title: `Refactor part ${index + 1} of the module`,
    rationale: 'generated',
    acceptance: 'tests pass',
    artifacts: ['src/big.js'],
    complexity: index % 3 === 0 ? 'complex' : 'medium',
    depends_on: index > 0 ? [`T${index}`] : [],
  }));
  yield {
    role: 'planner',
    type: 'plan',
    data: { plan_id: 'plan_0001', depth: 0, parent_step_id: null, analysis: 'A long refactor in many steps.', tasks },
  };
}

/** The Coder's edit and its commit: one attempt at a step. */
function* codingAttempt(step: string, cycle: number): Generator<LogEvent> {
  yield { role: 'engine', type: 'phase', data: { from: 'selecting', to: 'coding', step_id: step } };
  yield { role: 'coder', type: 'agent_call', data: { purpose: 'code', model: MODEL, step_id: step } };
  yield agentOutput(
    'coder',
    'code',
    { edits: [{ path: 'src/big.js', search: 'compute(1)', replace: 'compute(1, { cached: true })' }] },
    [3100, 420],
  );
  yield { role: 'coder', type: 'patch', data: { task_id: step, files: ['src/big.js'], format: 'search-replace' } };
  yield {
    role: 'git',
    type: 'commit',
    data: { sha: `${cycle}`.padStart(8, '0').repeat(5), task_id: step, files: ['src/big.js'] },
  };
}

/** The Verifier's test run of an attempt and the Tester's fix plan; a red one counts a fix cycle. */
function* testingAttempt(step: string, cycle: number, fix: number): Generator<LogEvent> {
  yield { role: 'engine', type: 'phase', data: { from: 'verifying', to: 'testing', step_id: step } };
  const green = fix === 2;
  yield {
    role: 'verifier',
    type: 'test_result',
    data: {
      purpose: 'step',
      task_id: step,
      status: green ? 'PASS' : 'FAIL',
      passed: green,
      exit_code: green ? 0 : 1,
      counts: { passed: green ? 40 : 39, failed: green ? 0 : 1, skipped: 0, total: 40 },
      first_failure: green ? null : { test_id: 'median of an even-length list', message: 'Expected 2.5, got 3' },
      report: REPORT,
      isolation: 'bubblewrap',
      duration_ms: 812,
      verify_run_id: `v-${cycle}-${fix}`,
      artifact_dir: '/tmp/none',
      coverage_percent: 87.5,
      tools: [],
    },
  };
  yield { role: 'tester', type: 'agent_call', data: { purpose: 'fix_plan', model: MODEL, step_id: step } };
  yield agentOutput('tester', 'fix_plan', { summary: 'one failure' }, [2200, 160]);
  yield {
    role: 'tester',
    type: 'fix_plan',
    data: {
      task_id: step,
      summary: green ? 'All tests pass.' : 'The even-length case still fails.',
      findings: [],
      fix_plan: [],
      blocking: !green,
    },
  };
  if (!green) {
    yield {
      role: 'engine',
      type: 'counters',
      data: { consecutive_verify_failures: fix + 1, total_verify_loops: fix + 1, replans: 0, decision: 'retry' },
    };
    yield { role: 'engine', type: 'fix_cycle', data: { step_id: step, cycle: fix + 1, max: 3 } };
  }
}

/** A Supervisor gate (`code` or `step`) opened, reviewed, approved and closed. */
function* supervisorGate(kind: string, step: string, cycle: number): Generator<LogEvent> {
  const gateId = `${kind}-${cycle}-${step}`;
  yield { role: 'engine', type: 'gate_opened', data: { gate_id: gateId, kind, step_id: step, mode: 'auto' } };
  yield { role: 'supervisor', type: 'agent_call', data: { purpose: `review_${kind}`, model: MODEL, step_id: step } };
  yield agentOutput('supervisor', `review_${kind}`, { approved: true, score: 84 }, [1400, 30]);
  yield {
    role: 'supervisor',
    type: 'verdict',
    data: {
      gate_id: gateId,
      gate: kind,
      step_id: step,
      approved: true,
      score: 84,
      threshold: 70,
      issues: [],
      feedback: 'Looks right.',
      escalation: 'NONE',
      consecutive_issues: 0,
    },
  };
  yield {
    role: 'supervisor',
    type: 'gate_closed',
    data: { gate_id: gateId, gate: kind, approved: true, by: 'supervisor' },
  };
}

/** The log of a long supervised run: many steps, each with agent calls, fix cycles, tests and gates. */
function* runEvents(runId: string, base: string, stepCount: number): Generator<LogEvent> {
  yield* runOpening(runId, base, stepCount);
  for (let cycle = 0; ; cycle++) {
    const step = `T${(cycle % stepCount) + 1}`;
    yield {
      role: 'engine',
      type: 'step_started',
      data: { step_id: step, title: `Refactor ${step}`, plan_id: 'plan_0001', depth: 0 },
    };
    for (let fix = 0; fix < 3; fix++) {
      yield* codingAttempt(step, cycle);
      yield* testingAttempt(step, cycle, fix);
    }
    for (const kind of ['code', 'step']) yield* supervisorGate(kind, step, cycle);
    yield { role: 'engine', type: 'step_completed', data: { step_id: step, title: `Refactor ${step}`, commits: [] } };
  }
}

/** A repository with one run: `eventCount` log events and a branch whose diff is a 5,000-line file. */
export function generateRun(eventCount: number, fileLines: number): GeneratedRun {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-ui-'));
  git(repo, 'init', '--quiet', '--initial-branch', 'main');
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src', 'big.js'), bigFile(fileLines, false));
  fs.writeFileSync(path.join(repo, 'README.md'), '# bench\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '--quiet', '--no-gpg-sign', '-m', 'base');
  const base = git(repo, 'rev-parse', 'HEAD');
  const runId = '20260101T000000Z';
  const branch = `lathe/${runId}`;
  git(repo, 'checkout', '--quiet', '-b', branch);
  fs.writeFileSync(path.join(repo, 'src', 'big.js'), bigFile(fileLines, true));
  fs.writeFileSync(path.join(repo, 'README.md'), '# bench\n\nRefactored by a long run.\n');
  git(repo, 'commit', '--quiet', '--no-gpg-sign', '-am', 'lathe(T1): refactor the module');
  const head = git(repo, 'rev-parse', 'HEAD');
  git(repo, 'checkout', '--quiet', 'main');

  const dir = path.join(repo, '.lathe', 'runs', runId);
  fs.mkdirSync(dir, { recursive: true });
  fs.appendFileSync(path.join(repo, '.git', 'info', 'exclude'), '.lathe/\n');
  const started = Date.parse('2026-01-01T00:00:00.000Z');
  const lines: string[] = [];
  let seq = 0;
  for (const event of runEvents(runId, base, 40)) {
    if (seq >= eventCount) break;
    seq += 1;
    lines.push(JSON.stringify({ ts: new Date(started + seq * 250).toISOString(), seq, run_id: runId, ...event }));
  }
  fs.writeFileSync(path.join(dir, 'log.jsonl'), `${lines.join('\n')}\n`);
  const state: RunState = {
    ...initialState({
      runId,
      goal: 'Refactor the generated module and keep every test green',
      goalHash: 'sha256:bench',
      config: configFromWorkflow(WORKFLOWS.supervised),
      now: new Date(started).toISOString(),
      nowMs: started,
    }),
    status: 'aborted',
    branch,
    phase: 'coding',
    head,
    commits: [head],
    log_seq: seq,
    elapsed_ms: seq * 250,
    workspace: {
      runId,
      repoRoot: repo,
      workDir: repo,
      mode: 'in-place',
      branch,
      baseCommit: base,
      originalBranch: 'main',
      protectedPaths: [],
    },
  };
  fs.writeFileSync(path.join(dir, 'state.json'), `${JSON.stringify(state, null, 2)}\n`);
  return {
    repo,
    runId,
    events: seq,
    diffLines: fileLines,
    remove: () => fs.rmSync(repo, { recursive: true, force: true }),
  };
}
