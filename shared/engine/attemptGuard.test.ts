import { describe, expect, it } from 'vitest';
import { agentOutput, countOf, simulate, testResult, workspace, type Script } from '../../test-support/engineSim';
import type { ActionOutcome, EngineAction } from './actions';
import { WORKFLOWS } from './workflows';
import { WORKFLOW_NAMES } from '../schemas/workflowName';
import type { RunState, TestedHead, TestSummary } from './runState';
import { failingRunAtHead, longestAnswerChars, recordAnswer, rollBackTo, stepBase, testedHead } from './attemptGuard';
import { configFromWorkflow } from './configFromWorkflow';
import { initialState } from './initialState';

const failing = (failed: number, overrides: Partial<TestSummary> = {}): TestSummary =>
  testResult(false, { counts: { passed: 5 - failed, failed, skipped: 0, total: 5 }, ...overrides });

interface Handlers {
  start?: TestSummary | null;
  /** The n-th step verification (1-based). */
  step?: (n: number) => TestSummary;
  /** The n-th writer answer (1-based). */
  answer?: (n: number) => unknown;
  apply?: (n: number) => ActionOutcome | null;
  testCommand?: string[] | null;
}

/** A retry-loop style run: seen[] records the state each writer call starts from. */
function script(handlers: Handlers, seen: RunState[] = []): Script {
  let verifies = 0;
  let answers = 0;
  let applies = 0;
  return (action: EngineAction, state: RunState): ActionOutcome => {
    switch (action.kind) {
      case 'prepare':
        return {
          kind: 'prepared',
          workspace,
          head: 'base',
          test_command: handlers.testCommand === undefined ? ['pytest'] : handlers.testCommand,
        };
      case 'verify':
        if (action.purpose === 'baseline' || action.purpose === 'preflight')
          return { kind: 'verified', purpose: action.purpose, test: handlers.start ?? failing(2) };
        verifies++;
        return { kind: 'verified', purpose: action.purpose, test: handlers.step?.(verifies) ?? testResult(true) };
      case 'apply': {
        applies++;
        const custom = handlers.apply?.(applies);
        if (custom) return custom;
        return { kind: 'applied', commit: `c${applies}`, head: `c${applies}`, files: ['src/a.py'] };
      }
      case 'agent':
        if (action.purpose === 'code') {
          seen.push(state);
          answers++;
          return agentOutput(
            action,
            handlers.answer?.(answers) ?? { edits: [{ path: 'src/a.py', content: `v${answers}\n` }] },
          );
        }
        return agentOutput(action, {
          plan_id: 'plan_0001',
          tasks: [{ id: 'T1', title: 't', rationale: 'r', acceptance: 'a', artifacts: ['src/a.py'] }],
        });
      default:
        return { kind: 'fatal', code: 'INTERNAL', message: action.kind };
    }
  };
}

const retryLoop = WORKFLOWS['retry-loop'];

describe('a failed attempt never becomes the next attempt’s base (issue 26)', () => {
  it('undoes an attempt that fails more tests than its base, and tells the writer what was undone and why', () => {
    const seen: RunState[] = [];
    const run = simulate(retryLoop, script({ step: (n) => (n === 1 ? failing(3) : testResult(true)) }, seen));
    expect(run.state.result?.status).toBe('complete');
    const rollback = run.events.find((event) => event.type === 'rollback');
    expect(rollback?.data).toMatchObject({
      to: 'base',
      dropped: ['c1'],
      reason: 'it left 3 failing test(s) where 2 failed before',
    });
    const second = seen[1] as RunState;
    expect(second.head).toBe('base');
    expect(second.commits).toEqual([]);
    expect(second.feedback?.kind).toBe('rolled_back');
    expect(second.feedback?.text).toMatch(
      /^Your last change was undone: it left 3 failing test\(s\) where 2 failed before\. Every file is back as it was/,
    );
    expect(run.state.commits).toEqual(['c2']);
  });

  it('keeps an attempt that fails fewer tests as the new base, and undoes a later one that is worse than it', () => {
    const seen: RunState[] = [];
    const run = simulate(
      retryLoop,
      script({ step: (n) => [failing(1), failing(2), testResult(true)][n - 1] ?? testResult(true) }, seen),
    );
    expect(seen[1]?.head).toBe('c1');
    expect(seen[1]?.attempt_base).toMatchObject({ commit: 'c1', failed: 1 });
    expect(seen[2]?.head).toBe('c1');
    expect(run.events.filter((event) => event.type === 'rollback').map((event) => event.data.to)).toEqual(['c1']);
    expect(run.state.commits).toEqual(['c1', 'c3']);
  });

  it('undoes an attempt that breaks the build, or weakens the tests', () => {
    const broke = simulate(
      retryLoop,
      script({ step: (n) => (n === 1 ? failing(0, { counts: null, failed_phase: 'build' }) : testResult(true)) }),
    );
    expect(broke.events.find((event) => event.type === 'rollback')?.data.reason).toContain('broke the build');
    const inventory = {
      compared: 'names' as const,
      before_total: 5,
      after_total: 4,
      before_passed: 3,
      after_passed: 4,
      missing: ['t::x'],
      missing_count: 1,
      skipped_now: [],
      skipped_now_count: 0,
      test_files_changed: [],
      weakened: true,
    };
    const weakened = simulate(
      retryLoop,
      script({ step: (n) => (n === 1 ? failing(0, { inventory }) : testResult(true)) }),
    );
    expect(weakened.events.find((event) => event.type === 'rollback')?.data.reason).toBe('it weakened the tests');
  });

  it('puts a new failing test down to the attempt that wrote it (a test written first is not a regression)', () => {
    const seen: RunState[] = [];
    const withNewTest = testResult(false, { counts: { passed: 3, failed: 3, skipped: 0, total: 6 } });
    const run = simulate(retryLoop, script({ step: (n) => (n === 1 ? withNewTest : testResult(true)) }, seen));
    expect(run.events.some((event) => event.type === 'rollback')).toBe(false);
    expect(seen[1]?.head).toBe('c1');
  });

  it('undoes a failed attempt that changed existing tests: no gate approved them', () => {
    const inventory = {
      compared: 'names' as const,
      before_total: 5,
      after_total: 5,
      before_passed: 3,
      after_passed: 3,
      missing: [],
      missing_count: 0,
      skipped_now: [],
      skipped_now_count: 0,
      test_files_changed: ['tests/test_a.py'],
      weakened: false,
    };
    const run = simulate(retryLoop, script({ step: (n) => (n === 1 ? failing(2, { inventory }) : testResult(true)) }));
    expect(run.events.find((event) => event.type === 'rollback')?.data.reason).toBe(
      'it changed existing tests (tests/test_a.py), which only a reviewer may approve',
    );
  });

  it('leaves an attempt that is no worse in place (the next one builds on it)', () => {
    const seen: RunState[] = [];
    simulate(retryLoop, script({ step: (n) => (n === 1 ? failing(2) : testResult(true)) }, seen));
    expect(seen[1]?.head).toBe('c1');
  });

  it('a step that runs out of attempts leaves the branch at its best state, not at its last attempt', () => {
    // 2 fail at the start; attempt 1 fixes one (the base), attempts 2-4 fix nothing more and stay in turn.
    const run = simulate(retryLoop, script({ step: (n) => (n === 1 ? failing(1) : failing(1)) }));
    expect(run.state.result?.status).toBe('failed');
    const last = run.events.filter((event) => event.type === 'rollback').at(-1);
    expect(last?.data).toMatchObject({
      to: 'c1',
      dropped: ['c2', 'c3', 'c4'],
      reason: "T1 ran out of attempts: the branch keeps the step's best state, not its last attempt",
    });
    expect(run.state.head).toBe('c1');
    expect(run.state.commits).toEqual(['c1']);
  });

  it('a rollback to a kept attempt keeps the unrelated hunks that attempt brought, for the gates to show', () => {
    const seen: RunState[] = [];
    const withHunks = (n: number): ActionOutcome => ({
      kind: 'applied',
      commit: `c${n}`,
      head: `c${n}`,
      files: ['src/a.py'],
      unrelated: [`src/a.py line ${n}: renames 'x' to 'y${n}'`],
    });
    simulate(
      retryLoop,
      script(
        { apply: withHunks, step: (n) => [failing(1), failing(3), testResult(true)][n - 1] ?? testResult(true) },
        seen,
      ),
    );
    // Attempt 1 (a better base) brought one hunk, attempt 2 (worse, undone) another: only the first stays.
    expect(seen[2]?.head).toBe('c1');
    expect(seen[2]?.unrelated_hunks).toEqual(["src/a.py line 1: renames 'x' to 'y1'"]);
    expect(seen[2]?.unrelated_hunk_commits).toEqual(['c1']);
  });
});

describe('the same answer twice (issue 26)', () => {
  const rejected = (): ActionOutcome => ({
    kind: 'apply_rejected',
    code: 'EDIT_REJECTED',
    message: 'edit 1: the search block was not found',
    rule: 'search-not-found',
    path: 'src/a.py',
  });
  const same = () => ({ edits: [{ path: 'src/a.py', content: 'same\n' }] });

  it('is not applied again: the writer is told, and the third identical answer ends the attempts', () => {
    const seen: RunState[] = [];
    const run = simulate(retryLoop, script({ answer: same, apply: rejected }, seen));
    expect(countOf(run.actions, (action) => action.kind === 'agent' && action.purpose === 'code')).toBe(3);
    expect(countOf(run.actions, (action) => action.kind === 'apply')).toBe(1);
    expect(seen[2]?.feedback?.kind).toBe('repeated_answer');
    expect(seen[2]?.feedback?.text).toMatch(
      /^Your answer is identical to the one you gave in attempt 1 \(2 times now\), so it was not applied again/,
    );
    expect(seen[2]?.feedback?.text).toContain('Giving it once more ends the attempts');
    expect(seen[2]?.feedback?.text).toContain('the search block was not found');
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(run.state.result?.reason).toContain('the writer gave the same answer 3 times');
    expect(run.events.filter((event) => event.type === 'edit_rejected').map((event) => event.data.code)).toEqual([
      'EDIT_REJECTED',
      'REPEATED_ANSWER',
      'REPEATED_ANSWER',
    ]);
  });

  it("ended by repetition, leaves the branch at the step's best state as running out of attempts does", () => {
    // Attempt 1 is kept (no worse than the start, no better); the answers after it are one refused text.
    const run = simulate(
      retryLoop,
      script({
        answer: (n) => (n === 1 ? { edits: [{ path: 'src/a.py', content: 'first\n' }] } : same()),
        apply: (n) => (n === 1 ? null : rejected()),
        step: () => failing(2),
      }),
    );
    expect(run.state.result?.reason).toContain('the writer gave the same answer 3 times');
    expect(run.events.filter((event) => event.type === 'rollback').at(-1)?.data).toMatchObject({
      to: 'base',
      dropped: ['c1'],
    });
    expect(run.state.head).toBe('base');
  });

  it('weighs a broken answer (cut off, malformed) given again as a repeat: three in all end the attempts', () => {
    const seen: RunState[] = [];
    const inner = script({}, seen);
    const broken = (times: number): ActionOutcome => ({
      kind: 'agent_failed',
      role: 'coder',
      purpose: 'code',
      code: 'ANSWER_CUT_OFF',
      message: 'the answer was cut off at 1024 tokens',
      calls: times,
      usage: { prompt_tokens: 1, completion_tokens: 1 },
      answer: { key: 'cut-text', times },
    });
    let calls = 0;
    const run = simulate(retryLoop, (action, state) => {
      if (action.kind !== 'agent' || action.purpose !== 'code') return inner(action, state);
      seen.push(state);
      calls++;
      // The first call's two tries gave the text; the second call's first try gives it again.
      return broken(calls === 1 ? 2 : 1);
    });
    expect(calls).toBe(2);
    expect(seen[1]?.feedback?.kind).toBe('repeated_answer');
    expect(seen[1]?.feedback?.text).toMatch(/^Your last answer failed: ANSWER_CUT_OFF: the answer was cut off/);
    expect(seen[1]?.feedback?.text).toContain('2 times now: giving it once more ends the attempts');
    expect(run.state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(run.state.result?.reason).toContain('the writer gave the same answer 3 times');
    expect(run.state.head).toBe('base');
  });

  it('counts an answer given again on another base as new, but not on the head its own commit made', () => {
    // A, then B (both kept: no worse), then A again: on B's head it is a new attempt, and it is applied.
    const other = simulate(
      retryLoop,
      script({
        answer: (n) => (n === 2 ? { edits: [{ path: 'src/a.py', content: 'other\n' }] } : same()),
        step: (n) => (n < 3 ? failing(2) : testResult(true)),
      }),
    );
    expect(countOf(other.actions, (action) => action.kind === 'apply')).toBe(3);
    expect(other.state.result?.status).toBe('complete');
    // A kept (no worse), then A again on the head A made: the same change on itself is a repeat, not applied.
    const seen: RunState[] = [];
    const run = simulate(retryLoop, script({ answer: same, step: () => failing(2) }, seen));
    expect(countOf(run.actions, (action) => action.kind === 'apply')).toBe(1);
    expect(seen[1]?.head).toBe('c1');
    expect(seen[2]?.feedback?.text).toMatch(
      /^Your answer is identical to the one you gave in attempt 1 \(2 times now\)/,
    );
    expect(run.state.result?.reason).toContain('the writer gave the same answer 3 times');
  });
});

// docs/seeds.md 0.32
describe('the suite at the run start (issue 26)', () => {
  it.each(WORKFLOW_NAMES)('%s runs the tests once before any model call and records them as the baseline', (name) => {
    const run = simulate(WORKFLOWS[name], script({}), { maxSteps: 4 });
    const preflight = WORKFLOWS[name].preflight_test;
    expect(run.actions.slice(0, 2)).toEqual([
      { kind: 'prepare' },
      { kind: 'verify', purpose: preflight ? 'preflight' : 'baseline' },
    ]);
    expect(run.state.baseline).toEqual({
      status: 'FAIL',
      counts: { passed: 3, failed: 2, skipped: 0, total: 5 },
      commit: 'base',
    });
    expect(run.state.tested_head).toMatchObject({ commit: 'base', failed: 2, passed: false });
  });

  it('without a test command there is nothing to record: the run goes on as before', () => {
    const run = simulate(WORKFLOWS.minimal, script({ testCommand: null }), { maxSteps: 3 });
    expect(run.actions.map((action) => action.kind)).toEqual(['prepare', 'agent', 'agent']);
    expect(run.state.baseline).toBeNull();
  });

  it('a test command that cannot run ends the run before any model call', () => {
    const infra = testResult(false, { status: 'INFRA_ERROR', counts: null, reason: 'pytest: not found' });
    const run = simulate(WORKFLOWS.supervised, script({ start: infra }));
    expect(run.state.result).toMatchObject({
      status: 'failed',
      exit_code: 2,
      reason: 'the test command could not run: pytest: not found',
    });
    expect(countOf(run.actions, (action) => action.kind === 'agent')).toBe(0);
  });
});

describe('a rejected step that carried what must never ship (issue 26)', () => {
  function devAgent(unrelated: string[], seen: RunState[], flagged: string[] = []): Script {
    let reviews = 0;
    const base = script({ start: failing(1), step: () => testResult(true) }, seen);
    return (action, state) => {
      if (action.kind === 'apply' && state.current_step_id) {
        const applied = base(action, state);
        return applied.kind === 'applied' ? { ...applied, unrelated: reviews === 0 ? unrelated : [] } : applied;
      }
      if (action.kind === 'agent' && action.purpose === 'review_step')
        return agentOutput(action, {
          approved: ++reviews > 1,
          score: reviews > 1 ? 90 : 30,
          issues: [],
          feedback: 'n',
          unrelated: reviews > 1 ? [] : flagged,
        });
      return base(action, state);
    };
  }

  it('is undone when its gate showed unrelated hunks; a plain rejection is refined on top (seed 001)', () => {
    const seen: RunState[] = [];
    const run = simulate(WORKFLOWS['dev-agent'], devAgent(['a.py lines 8-9 (original lines 8-9): renames x'], seen));
    expect(run.events.find((event) => event.type === 'gate_opened')?.data).toMatchObject({
      unrelated: ['a.py lines 8-9 (original lines 8-9): renames x'],
    });
    expect(run.events.find((event) => event.type === 'rollback')?.data).toMatchObject({
      to: 'base',
      reason: 'the Supervisor rejected it at the step gate',
    });
    expect(seen[1]?.head).toBe('base');
    expect(seen[1]?.feedback?.text).toContain('Your change was undone');
    const plain: RunState[] = [];
    const refined = simulate(WORKFLOWS['dev-agent'], devAgent([], plain));
    expect(refined.events.some((event) => event.type === 'rollback')).toBe(false);
    expect(plain[1]?.head).toBe('c1');
  });

  it('is undone when the reviewer names a hunk unrelated that Lathe kept: the writer could not put back what it is not shown', () => {
    const seen: RunState[] = [];
    const run = simulate(
      WORKFLOWS['dev-agent'],
      devAgent([], seen, ['sqlparse/filters/others.py lines 79-90 of the file before the change']),
    );
    expect(run.events.find((event) => event.type === 'gate_opened')?.data).toMatchObject({ unrelated: [] });
    expect(run.events.find((event) => event.type === 'rollback')?.data).toMatchObject({
      to: 'base',
      reason: 'the Supervisor rejected it at the step gate',
    });
    expect(seen[1]?.head).toBe('base');
    expect(seen[1]?.feedback?.text).toContain('Your change was undone');
  });
});

/** A retry-loop run's state before it started, for the pure functions below. */
const start = initialState({
  runId: 'r',
  goal: 'g',
  goalHash: 'h',
  config: configFromWorkflow(retryLoop),
  now: new Date(0).toISOString(),
  nowMs: 0,
});

describe("the step's longest answer", () => {
  it('is recorded with each answer and is the longest of them, a repeat included; none before the first', () => {
    const long = { edits: [{ path: 'tests/test_a.py', content: 'x'.repeat(9000) }] };
    const short = { edits: [{ path: 'a.py', content: 'y' }] };
    const once = recordAnswer({ ...start, head: 'c0' }, long).state;
    const twice = recordAnswer(recordAnswer(once, short).state, long);
    expect(twice.kind).toBe('repeated');
    expect(longestAnswerChars(twice.state)).toBe(JSON.stringify(long).length);
    expect(longestAnswerChars(start)).toBe(0);
  });
});

describe('a rollback (issue 26)', () => {
  const dropped: TestedHead = { commit: 'c2', failed: 2, total: 5, passed: false, build_failed: false };

  it("leaves the verdict of the commit it went back to as the last known one, so a step started there (a sub-plan's) builds on it", () => {
    const state: RunState = { ...start, head: 'c2', commits: ['c1', 'c2'], tested_head: dropped };
    const green = { commit: 'c1', commit_count: 1, failed: 0, total: 5, passed: true, build_failed: false };
    const rolled = rollBackTo(state, green, 'the tests passed before it and fail after it').state;
    expect(rolled.head).toBe('c1');
    expect(rolled.tested_head).toEqual({ commit: 'c1', failed: 0, total: 5, passed: true, build_failed: false });
    // The next step's base knows the tests passed there: an attempt of it that fails them is worse, and undone.
    expect(stepBase(rolled)).toMatchObject({ commit: 'c1', passed: true, failed: 0 });
    // A base never verified stays unknown: the dropped attempt's verdict is not taken for it.
    const unverified = rollBackTo(state, { ...green, failed: null, total: null, passed: null }, 'x').state;
    expect(stepBase(unverified)).toMatchObject({ commit: 'c1', passed: null });
  });

  it("keeps the failing run of the commit it went back to, for the next attempt: the undone attempt's run is not it", () => {
    const failingBase = { commit: 'c1', commit_count: 1, failed: 1, total: 5, passed: false, build_failed: false };
    const passedThenRejected: TestedHead = { commit: 'c2', failed: 0, total: 5, passed: true, build_failed: false };
    const state: RunState = { ...start, head: 'c2', commits: ['c1', 'c2'], tested_head: passedThenRejected };
    const run = 'FAILED tests/test_a.py::test_x - at line 40 of src/a.py';
    const rolled = rollBackTo(state, { ...failingBase, failing_run: run }, 'the Supervisor rejected it').state;
    expect(failingRunAtHead(rolled)).toBe(run);
    expect(stepBase(rolled)?.failing_run).toBe(run);
    // A verification's own verdict carries its failing run, and a passing one none.
    const failing = { ...testResult(false), excerpt: run };
    expect(testedHead(rolled, failing)?.failing_run).toBe(run);
    expect(testedHead(rolled, testResult(true))?.failing_run).toBeUndefined();
    expect(failingRunAtHead({ ...rolled, tested_head: { ...passedThenRejected, commit: 'c1' } })).toBeNull();
  });
});
