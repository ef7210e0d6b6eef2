import type { ActionOutcome, EngineAction } from '../shared/engine/actions';
import type { PendingEvent } from '../shared/engine/runEvents';
import { configFromWorkflow } from '../shared/engine/configFromWorkflow';
import { initialState } from '../shared/engine/initialState';
import { applyOutcome } from '../shared/engine/machine';
import { nextAction } from '../shared/engine/nextAction';
import type { Workflow } from '../shared/engine/workflows';
import type { RunConfig } from '../shared/engine/runConfig';
import type { RunState, TestSummary } from '../shared/engine/runState';
import { agentOutputOutcome } from '../shared/engine/agentOutputs';

export type Script = (action: EngineAction, state: RunState) => ActionOutcome;

export interface Simulation {
  state: RunState;
  events: PendingEvent[];
  actions: EngineAction[];
}

/** Drives the pure machine with scripted outcomes until it finishes, waits for a user, or `maxSteps`. */
export function simulate(
  workflow: Workflow,
  script: Script,
  options: {
    config?: (config: RunConfig) => RunConfig;
    from?: RunState;
    maxSteps?: number;
    stopOnAwait?: boolean;
  } = {},
): Simulation {
  let state =
    options.from ??
    initialState({
      runId: '20260101T000000Z',
      goal: 'make the tests pass',
      goalHash: 'sha256:x',
      config: (options.config ?? ((c) => c))(configFromWorkflow(workflow)),
      now: 't0',
      nowMs: 0,
    });
  const events: PendingEvent[] = [];
  const actions: EngineAction[] = [];
  for (let step = 0; step < (options.maxSteps ?? 500); step++) {
    const action = nextAction(state, workflow);
    actions.push(action);
    if (action.kind === 'finish') break;
    if (action.kind === 'await_user' && options.stopOnAwait) break;
    const outcome = action.kind === 'internal' ? ({ kind: 'internal' } as const) : script(action, state);
    const transition = applyOutcome(state, workflow, outcome, `t${step + 1}`);
    state = transition.state;
    events.push(...transition.events);
    if (state.status === 'aborted' || state.status === 'time_expired') break;
  }
  return { state, events, actions };
}

export const usage = { prompt_tokens: 10, completion_tokens: 5 };

export function testResult(passed: boolean, overrides: Partial<TestSummary> = {}): TestSummary {
  return {
    status: passed ? 'PASS' : 'FAIL',
    passed,
    exit_code: passed ? 0 : 1,
    counts: { passed: passed ? 3 : 2, failed: passed ? 0 : 1, skipped: 0, total: 3 },
    first_failure: passed
      ? null
      : { test_id: 'test_stats.py::test_mean', message: 'AssertionError: 2 != 3', location: 'test_stats.py:7' },
    results_from: 'pytest (JUnit XML)',
    report: passed ? '3 passed' : 'FAILED test_stats.py::test_mean - AssertionError: 2 != 3',
    excerpt: passed
      ? 'PASS, exit code 0 — pytest (JUnit XML): 0 failed, 3 passed'
      : 'FAIL, exit code 1 — pytest (JUnit XML): 1 failed, 2 passed\n1) test_stats.py::test_mean\n   AssertionError: 2 != 3',
    tail: passed ? '3 passed in 0.01s' : 'E   AssertionError: 2 != 3\n1 failed, 2 passed in 0.01s',
    reason: null,
    isolation: 'bwrap',
    duration_ms: 10,
    verify_run_id: 'v1',
    artifact_dir: '/tmp/a',
    coverage_percent: null,
    failed_phase: null,
    work_dir_writes: null,
    inventory: null,
    tools: [],
    ...overrides,
  };
}

export const workspace = {
  runId: '20260101T000000Z',
  repoRoot: '/repo',
  workDir: '/repo',
  mode: 'worktree' as const,
  branch: 'lathe/20260101T000000Z',
  baseCommit: 'base',
  originalBranch: 'main',
  protectedPaths: [],
};

/** An answer as the engine's agent effect turns it into an outcome: typed when it is one, INVALID_OUTPUT when not. */
export function agentOutput(action: EngineAction, output: unknown): ActionOutcome {
  if (action.kind !== 'agent')
    return { kind: 'fatal', code: 'INTERNAL', message: `expected an agent action, got ${action.kind}` };
  const typed = agentOutputOutcome(action.purpose, output, { role: action.role, calls: 1, usage });
  if ('invalid' in typed)
    return {
      kind: 'agent_failed',
      role: action.role,
      purpose: action.purpose,
      code: 'INVALID_OUTPUT',
      message: typed.invalid,
      calls: 1,
      usage,
    };
  return typed;
}

export const verdict = (approved: boolean, score: number, feedback = 'ok') => ({
  approved,
  score,
  issues: approved ? [] : ['an issue'],
  feedback,
});

export function countOf(actions: EngineAction[], predicate: (action: EngineAction) => boolean): number {
  return actions.filter(predicate).length;
}

export function eventTypes(events: PendingEvent[]): string[] {
  return events.map((event) => event.type);
}
