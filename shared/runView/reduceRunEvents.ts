import type { RunLogEvent } from '../schemas/run';
import { readRunEvent, type RunEvent, type RunEventOf } from '../engine/readRunEvent';
import { msBetween } from './eventData';
import { applyGateEvent } from './reduceGates';
import { applyPlan, applyStepEvent, closePlans, settleSteps, updateStep } from './reducePlans';
import type { AgentStats, RunView, SeqRange, TestView } from './types';

export function emptyRunView(runId: string | null = null): RunView {
  return {
    runId,
    goal: '',
    workflow: null,
    seed: null,
    models: {},
    status: null,
    phase: null,
    currentStepId: null,
    branch: null,
    baseCommit: null,
    workDir: null,
    testCommand: null,
    plans: {},
    rootPlanIds: [],
    steps: {},
    stepKeyById: {},
    gates: {},
    gateOrder: [],
    tests: [],
    commits: [],
    rolledBack: [],
    agents: {},
    active: null,
    callStarts: {},
    counters: {
      fixCycle: 0,
      fixCycleMax: null,
      retries: 0,
      replans: 0,
      planAttempts: 0,
      consecutiveVerifyFailures: 0,
      totalVerifyLoops: 0,
    },
    outcome: null,
    stopped: null,
    pausing: false,
    undone: false,
    mergedInto: null,
    warnings: 0,
    orphaned: [],
    needsRebuild: false,
    startedTs: null,
    lastTs: null,
    lastSeq: 0,
    reduced: 0,
  };
}

/** Applies one log event. Pure: the view passed in is never changed. */
export function reduceRunEvents(view: RunView, event: RunLogEvent): RunView {
  return reduceRunEventBatch(view, [event]);
}

/**
 * Applies a page of log events in order. Pure: it copies the view's containers once and replaces
 * (never edits) the items it changes, so a 10k-event log is one linear pass.
 */
export function reduceRunEventBatch(view: RunView, events: readonly RunLogEvent[]): RunView {
  const fresh = events.filter((event) => event.seq > view.lastSeq);
  if (fresh.length === 0) return view;
  const draft: RunView = {
    ...view,
    models: { ...view.models },
    plans: { ...view.plans },
    steps: { ...view.steps },
    stepKeyById: { ...view.stepKeyById },
    gates: { ...view.gates },
    agents: { ...view.agents },
    callStarts: { ...view.callStarts },
  };
  for (const event of fresh) {
    if (event.seq <= draft.lastSeq) continue;
    draft.runId ??= event.run_id;
    const known = readRunEvent(event);
    if (known?.type === 'run_resumed') noteOrphans(draft, known);
    draft.lastSeq = event.seq;
    draft.lastTs = event.ts;
    if (isOrphaned(draft.orphaned, event.seq)) continue;
    draft.reduced += 1;
    if (known) applyEvent(draft, known);
  }
  return draft;
}

/** The `orphaned_events` ranges named by the `run_resumed` events of a log. */
export function orphanedRanges(events: readonly RunLogEvent[]): SeqRange[] {
  const ranges: SeqRange[] = [];
  for (const event of events) {
    const known = readRunEvent(event);
    const range = known?.type === 'run_resumed' ? rangeOf(known.data.orphaned_events) : null;
    if (range) ranges.push(range);
  }
  return ranges;
}

export function isOrphaned(ranges: readonly SeqRange[], seq: number): boolean {
  return ranges.some((range) => seq >= range.from && seq <= range.to);
}

/** A whole log (or every page read so far) to a view, skipping events a later resume redid. */
export function buildRunView(events: readonly RunLogEvent[], runId: string | null = null): RunView {
  return reduceRunEventBatch(
    { ...emptyRunView(runId ?? events[0]?.run_id ?? null), orphaned: orphanedRanges(events) },
    events,
  );
}

/** A resume names events after its last saved state; ones already reduced need a rebuild to drop. */
function noteOrphans(view: RunView, event: RunEventOf<'run_resumed'>): void {
  const range = rangeOf(event.data.orphaned_events);
  if (!range || view.orphaned.some((known) => known.from === range.from && known.to === range.to)) return;
  view.orphaned = [...view.orphaned, range];
  if (view.lastSeq >= range.from) view.needsRebuild = true;
}

function rangeOf(range: SeqRange | null | undefined): SeqRange | null {
  return range && range.to >= range.from ? { from: range.from, to: range.to } : null;
}

function applyEvent(view: RunView, event: RunEvent): void {
  switch (event.type) {
    case 'run_started':
      start(view, event);
      return;
    case 'run_resumed':
      resume(view);
      return;
    case 'pause_requested':
      view.pausing = true;
      return;
    case 'workspace_ready':
      view.branch = event.data.branch ?? null;
      view.baseCommit = event.data.base ?? null;
      view.workDir = event.data.work_dir ?? null;
      view.testCommand = event.data.test_command ?? null;
      return;
    case 'phase':
      view.phase = event.data.to ?? null;
      view.currentStepId = event.data.step_id ?? null;
      return;
    case 'plan':
      applyPlan(view, event);
      return;
    case 'agent_call':
      startCall(view, event);
      return;
    case 'agent_output':
    case 'agent_declined':
    case 'agent_failed':
      endCall(view, event);
      return;
    case 'test_result':
      view.tests = [...view.tests, testOf(event)];
      return;
    case 'fix_cycle':
    case 'counters':
    case 'replan':
      view.counters = countersAfter(view.counters, event);
      return;
    case 'warning':
    case 'edit_rejected':
    case 'plan_invalid':
      view.warnings += 1;
      return;
    case 'run_stopped':
      stop(view, event);
      return;
    case 'run_finished':
      finish(view, event);
      return;
    case 'run_undone':
      // The last of run_undone / run_merged decides (docs/events.md): an undo after a merge takes the merge back.
      view.undone = true;
      view.mergedInto = null;
      return;
    case 'run_merged':
      view.mergedInto = event.data.into ?? 'the original branch';
      return;
    default:
      applyStepEvent(view, event);
      applyGateEvent(view, event);
  }
}

function start(view: RunView, event: RunEventOf<'run_started'>): void {
  const { data } = event;
  view.goal = data.goal ?? view.goal;
  view.workflow = data.workflow ?? null;
  view.seed = data.seed ?? null;
  view.models = modelsOf(data.models);
  view.status = 'running';
  view.startedTs = event.ts;
}

function resume(view: RunView): void {
  view.status = 'running';
  settleSteps(view, { ended: 'resumed' });
  view.stopped = null;
  view.pausing = false;
  view.active = null;
}

function countersAfter(
  counters: RunView['counters'],
  event: RunEventOf<'fix_cycle' | 'counters' | 'replan'>,
): RunView['counters'] {
  switch (event.type) {
    case 'fix_cycle':
      return {
        ...counters,
        fixCycle: event.data.cycle ?? counters.fixCycle + 1,
        fixCycleMax: event.data.max ?? null,
      };
    case 'counters':
      return {
        ...counters,
        consecutiveVerifyFailures: event.data.consecutive_verify_failures ?? counters.consecutiveVerifyFailures,
        totalVerifyLoops: event.data.total_verify_loops ?? counters.totalVerifyLoops,
        replans: event.data.replans ?? counters.replans,
      };
    case 'replan':
      return { ...counters, replans: Math.max(counters.replans, event.data.replan ?? counters.replans + 1) };
    default:
      return event satisfies never;
  }
}

function stop(view: RunView, event: RunEventOf<'run_stopped'>): void {
  view.stopped = {
    status: event.data.status ?? 'aborted',
    exitCode: null,
    reason: event.data.reason ?? '',
    code: null,
  };
  view.status = event.data.status ?? 'aborted';
  view.pausing = false;
  view.active = null;
  settleSteps(view, { ended: 'stopped' });
}

function finish(view: RunView, event: RunEventOf<'run_finished'>): void {
  const status = event.data.status ?? 'failed';
  view.outcome = {
    status,
    exitCode: event.data.exit_code ?? null,
    reason: event.data.reason ?? '',
    code: event.data.code ?? null,
  };
  view.status = status;
  view.phase = 'finished';
  view.active = null;
  view.stopped = null;
  view.pausing = false;
  closePlans(view, status === 'complete');
  settleSteps(view, { ended: 'finished', complete: status === 'complete', reason: event.data.reason ?? status });
  for (const gateId of view.gateOrder) {
    const gate = view.gates[gateId];
    if (gate && (gate.status === 'pending' || gate.status === 'open'))
      view.gates[gateId] = { ...gate, status: 'abandoned' };
  }
}

function modelsOf(value: RunEventOf<'run_started'>['data']['models']): Record<string, string> {
  const models: Record<string, string> = {};
  for (const [role, config] of Object.entries(value ?? {}))
    if (config) models[role] = typeof config === 'string' ? config : config.model;
  return models;
}

function agentOf(view: RunView, role: string): AgentStats {
  return (
    view.agents[role] ?? {
      role,
      calls: 0,
      promptTokens: 0,
      cachedTokens: 0,
      completionTokens: 0,
      estimated: false,
      callMs: 0,
      failures: 0,
      lastModel: null,
    }
  );
}

function startCall(view: RunView, event: RunEventOf<'agent_call'>): void {
  const model = event.data.model ?? null;
  view.active = {
    role: event.role,
    purpose: event.data.purpose ?? '',
    stepId: event.data.step_id ?? null,
    model,
    sinceTs: event.ts,
  };
  view.callStarts[event.role] = event.ts;
  view.agents[event.role] = { ...agentOf(view, event.role), lastModel: model ?? agentOf(view, event.role).lastModel };
}

/** An answer, a refusal or a failure ends the call (a failure's `agent_raw` comes just before its `agent_failed`, and ends nothing). */
function endCall(view: RunView, event: RunEventOf<'agent_output' | 'agent_declined' | 'agent_failed'>): void {
  const agent = agentOf(view, event.role);
  const usage = event.data.usage;
  const started = view.callStarts[event.role];
  const elapsed = started ? (msBetween(started, event.ts) ?? 0) : 0;
  delete view.callStarts[event.role];
  const calls = event.data.calls;
  const spent = {
    calls: calls ?? 1,
    prompt: usage?.prompt_tokens ?? 0,
    cached: usage?.cached_tokens ?? 0,
    generated: usage?.completion_tokens ?? 0,
    estimated: usage?.estimated === true,
  };
  view.agents[event.role] = {
    ...agent,
    calls: agent.calls + spent.calls,
    promptTokens: agent.promptTokens + spent.prompt,
    cachedTokens: agent.cachedTokens + spent.cached,
    completionTokens: agent.completionTokens + spent.generated,
    estimated: agent.estimated || spent.estimated,
    callMs: agent.callMs + elapsed,
    failures: agent.failures + (event.type === 'agent_failed' ? 1 : 0),
  };
  // The step the call was made for, as its agent_call said.
  const stepId = view.active?.role === event.role ? view.active.stepId : null;
  if (stepId && (usage || elapsed > 0)) {
    updateStep(view, view.stepKeyById[stepId], (step) => ({
      ...step,
      spend: {
        ...step.spend,
        calls: step.spend.calls + (usage ? spent.calls : 0),
        promptTokens: step.spend.promptTokens + spent.prompt,
        cachedTokens: step.spend.cachedTokens + spent.cached,
        generatedTokens: step.spend.generatedTokens + spent.generated,
        estimated: step.spend.estimated || spent.estimated,
        callMs: step.spend.callMs + elapsed,
      },
    }));
  }
  if (view.active?.role === event.role) view.active = null;
}

function testOf(event: RunEventOf<'test_result'>): TestView {
  const { data } = event;
  return {
    seq: event.seq,
    ts: event.ts,
    stepId: data.step_id ?? null,
    purpose: data.purpose ?? 'step',
    status: data.status ?? 'INFRA_ERROR',
    exitCode: data.exit_code ?? null,
    counts: data.counts ?? null,
    firstFailure: data.first_failure
      ? { testId: data.first_failure.test_id, message: data.first_failure.message }
      : null,
    reason: data.reason ?? null,
    verifyRunId: data.verify_run_id ?? null,
    durationMs: data.duration_ms ?? null,
    coveragePercent: data.coverage_percent ?? null,
    tools: (data.tools ?? []).map((tool) => ({ name: tool.name, status: tool.status, required: tool.required })),
  };
}
