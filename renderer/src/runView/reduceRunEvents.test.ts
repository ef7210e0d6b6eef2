import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { recordedLog } from './fixtures/loadLog';
import { pendingGate } from '../../../shared/runView/reduceGates';
import {
  buildRunView,
  emptyRunView,
  orphanedRanges,
  reduceRunEventBatch,
  reduceRunEvents,
} from '../../../shared/runView/reduceRunEvents';

describe('reduceRunEvents on a recorded supervised run', () => {
  const events = recordedLog('supervised');
  const view = buildRunView(events);

  it('builds the plan tree with statuses, complexity, dependencies and commits', () => {
    expect(view.rootPlanIds).toEqual(['plan_0001']);
    const plan = view.plans.plan_0001;
    expect(plan?.status).toBe('completed');
    expect(plan?.stepKeys).toEqual(['plan_0001/T1', 'plan_0001/T2']);
    const t1 = view.steps['plan_0001/T1'];
    const t2 = view.steps['plan_0001/T2'];
    expect(t1).toMatchObject({
      title: 'Fix median() and test that it keeps its input',
      status: 'completed',
      complexity: 'simple',
      attempts: 1,
    });
    expect(t1?.commits).toHaveLength(2);
    expect(t2).toMatchObject({ status: 'completed', dependsOn: ['T1'] });
  });

  it('keeps the outcome, branch, tests, commits and counters', () => {
    expect(view.status).toBe('complete');
    expect(view.outcome).toEqual({
      status: 'complete',
      exitCode: 0,
      reason: 'the Supervisor confirmed the goal is met',
      code: null,
    });
    expect(view.branch).toBe('lathe/20261122T033735Z');
    expect(view.testCommand).toEqual(['node', '--test']);
    expect(view.tests.map((test) => test.status)).toEqual(['FAIL', 'PASS', 'PASS']);
    expect(view.tests[0]?.counts).toEqual({ passed: 2, failed: 2, skipped: 0, total: 4 });
    expect(view.tests[0]?.firstFailure?.testId).toBe('median is the middle value of the sorted list');
    expect(view.commits.map((commit) => commit.taskId)).toEqual(['T1', 'T1', 'T2']);
    expect(view.counters).toMatchObject({ fixCycle: 0, fixCycleMax: 3, planAttempts: 1, totalVerifyLoops: 1 });
    expect(view.lastSeq).toBe(90);
    expect(view.reduced).toBe(90);
  });

  it('records each gate with the Supervisor verdict and who closed it', () => {
    expect(view.gateOrder).toEqual([
      'plan-1-plan_0001',
      'code-2-T1',
      'step-3-T1',
      'code-4-T2',
      'step-5-T2',
      'goal-6-plan_0001',
    ]);
    expect(view.gates['plan-1-plan_0001']).toMatchObject({
      kind: 'plan',
      status: 'approved',
      decidedBy: 'supervisor',
      verdict: { score: 86, threshold: 70, escalation: 'NONE' },
    });
    expect(pendingGate(view)).toBeNull();
  });

  it('sums tokens and call time per agent and clears the active agent at the end', () => {
    expect(view.agents.planner).toMatchObject({ calls: 1, promptTokens: 1123, completionTokens: 199 });
    expect(view.agents.supervisor?.calls).toBe(6);
    expect(view.agents.coder?.lastModel).toMatch(/^replay:/);
    expect(view.active).toBeNull();
  });

  it('shows the agent at work mid-run', () => {
    const midway = buildRunView(events.filter((event) => event.seq <= 16));
    expect(midway.active).toMatchObject({ role: 'coder', purpose: 'code', stepId: 'T1' });
    expect(midway.steps['plan_0001/T1']?.status).toBe('in_progress');
    expect(midway.plans.plan_0001?.status).toBe('in_progress');
    expect(midway.phase).toBe('coding');
  });

  it('gives the same view event by event as page by page, without changing its input', () => {
    let stepwise = emptyRunView();
    const frozen = JSON.stringify(stepwise);
    const first = stepwise;
    for (const event of events) stepwise = reduceRunEvents(stepwise, event);
    expect(JSON.stringify(first)).toBe(frozen);
    const paged = reduceRunEventBatch(reduceRunEventBatch(emptyRunView(), events.slice(0, 40)), events.slice(40));
    expect(stepwise).toEqual(view);
    expect(paged).toEqual(view);
  });

  it('ignores an event it already has (a live push racing a page read)', () => {
    const again = reduceRunEventBatch(view, events.slice(80));
    expect(again).toBe(view);
  });
});

describe('reduceRunEvents on a recorded run with human gates', () => {
  const events = recordedLog('devAgentHumanGates');

  it('shows the gate pending, then the rejection with its comment and the retry, then the approval', () => {
    const waiting = buildRunView(events.filter((event) => event.seq <= 28));
    expect(waiting.status).toBe('waiting_for_gate');
    expect(pendingGate(waiting)).toMatchObject({
      gateId: 'step-1-T1',
      kind: 'step',
      mode: 'human',
      status: 'pending',
      verdict: null,
    });

    const view = buildRunView(events);
    expect(view.gates['step-1-T1']).toMatchObject({
      status: 'rejected',
      decidedBy: 'user',
      comment: 'also document both functions in README.md',
    });
    expect(view.gates['step-2-T1']).toMatchObject({ status: 'approved', decidedBy: 'user', comment: null });
    expect(view.steps['plan_0001/T1'] ?? Object.values(view.steps)[0]).toMatchObject({
      status: 'completed',
      attempts: 3,
    });
    expect(view.counters.retries).toBe(2);
    expect(view.status).toBe('complete');
    expect(pendingGate(view)).toBeNull();
  });
});

describe('orphaned events after a crash', () => {
  const events = recordedLog('supervised');
  // The engine saved its state at seq 21 and was killed after writing 22 and 23 (a failed test).
  const beforeCrash = events.filter((event) => event.seq <= 23);
  const resumed: RunLogEvent = {
    ts: '2026-11-22T03:40:00.000Z',
    seq: 24,
    run_id: beforeCrash[0]?.run_id ?? '',
    role: 'engine',
    type: 'run_resumed',
    data: { phase: 'verifying', previous_status: 'running', state_seq: 21, orphaned_events: { from: 22, to: 23 } },
  };
  const redone = events
    .filter((event) => event.seq === 22 || event.seq === 23)
    .map((event, index) => ({ ...event, seq: 25 + index }));
  const log = [...beforeCrash, resumed, ...redone];

  it('skips the orphaned range when the whole log is known', () => {
    expect(orphanedRanges(log)).toEqual([{ from: 22, to: 23 }]);
    const view = buildRunView(log);
    expect(view.tests).toHaveLength(1);
    expect(view.tests[0]?.seq).toBe(26);
    expect(view.needsRebuild).toBe(false);
    expect(view.reduced).toBe(log.length - 2);
  });

  it('asks for a rebuild when the resume arrives live after the orphaned events were reduced', () => {
    const live = reduceRunEvents(buildRunView(beforeCrash), resumed);
    expect(live.needsRebuild).toBe(true);
    expect(live.orphaned).toEqual([{ from: 22, to: 23 }]);
  });
});
