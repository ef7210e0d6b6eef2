import { RunStatusSchema, type RunLogEvent } from '../../../shared/schemas/run';
import { msBetween, num, record, records, str, strList } from './eventData';
import { applyGateEvent } from './reduceGates';
import { applyPlan, applyStepEvent, closePlans } from './reducePlans';
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
    counters: { fixCycle: 0, fixCycleMax: null, retries: 0, replans: 0, planAttempts: 0, consecutiveVerifyFailures: 0, totalVerifyLoops: 0 },
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
    if (event.type === 'run_resumed') noteOrphans(draft, event);
    draft.lastSeq = event.seq;
    draft.lastTs = event.ts;
    if (isOrphaned(draft.orphaned, event.seq)) continue;
    draft.reduced += 1;
    applyEvent(draft, event);
  }
  return draft;
}

/** The `orphaned_events` ranges named by the `run_resumed` events of a log. */
export function orphanedRanges(events: readonly RunLogEvent[]): SeqRange[] {
  const ranges: SeqRange[] = [];
  for (const event of events) {
    if (event.type !== 'run_resumed') continue;
    const range = rangeOf(event.data.orphaned_events);
    if (range) ranges.push(range);
  }
  return ranges;
}

export function isOrphaned(ranges: readonly SeqRange[], seq: number): boolean {
  return ranges.some((range) => seq >= range.from && seq <= range.to);
}

/** A whole log (or every page read so far) to a view, skipping events a later resume redid. */
export function buildRunView(events: readonly RunLogEvent[], runId: string | null = null): RunView {
  return reduceRunEventBatch({ ...emptyRunView(runId ?? events[0]?.run_id ?? null), orphaned: orphanedRanges(events) }, events);
}

/** A resume names events after its last saved state; ones already reduced need a rebuild to drop. */
function noteOrphans(view: RunView, event: RunLogEvent): void {
  const range = rangeOf(event.data.orphaned_events);
  if (!range || view.orphaned.some((known) => known.from === range.from && known.to === range.to)) return;
  view.orphaned = [...view.orphaned, range];
  if (view.lastSeq >= range.from) view.needsRebuild = true;
}

function rangeOf(value: unknown): SeqRange | null {
  const range = record(value);
  if (!range) return null;
  const from = num(range, 'from');
  const to = num(range, 'to');
  return from !== null && to !== null && to >= from ? { from, to } : null;
}

function applyEvent(view: RunView, event: RunLogEvent): void {
  const { data } = event;
  switch (event.type) {
    case 'run_started':
      view.goal = str(data, 'goal') ?? view.goal;
      view.workflow = str(data, 'workflow');
      view.seed = str(data, 'seed');
      view.models = modelsOf(data.models);
      view.status = 'running';
      view.startedTs = event.ts;
      return;
    case 'run_resumed':
      view.status = 'running';
      view.stopped = null;
      view.pausing = false;
      view.active = null;
      return;
    case 'pause_requested':
      view.pausing = true;
      return;
    case 'workspace_ready':
      view.branch = str(data, 'branch');
      view.baseCommit = str(data, 'base');
      view.workDir = str(data, 'work_dir');
      view.testCommand = Array.isArray(data.test_command) ? strList(data, 'test_command') : null;
      return;
    case 'phase':
      view.phase = str(data, 'to');
      view.currentStepId = str(data, 'step_id');
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
    case 'agent_raw':
      endCall(view, event);
      return;
    case 'test_result':
      view.tests = [...view.tests, testOf(event)];
      return;
    case 'fix_cycle':
      view.counters = { ...view.counters, fixCycle: num(data, 'cycle') ?? view.counters.fixCycle + 1, fixCycleMax: num(data, 'max') };
      return;
    case 'counters':
      view.counters = {
        ...view.counters,
        consecutiveVerifyFailures: num(data, 'consecutive_verify_failures') ?? view.counters.consecutiveVerifyFailures,
        totalVerifyLoops: num(data, 'total_verify_loops') ?? view.counters.totalVerifyLoops,
        replans: num(data, 'replans') ?? view.counters.replans,
      };
      return;
    case 'replan':
      view.counters = { ...view.counters, replans: Math.max(view.counters.replans, num(data, 'replan') ?? view.counters.replans + 1) };
      return;
    case 'warning':
    case 'edit_rejected':
    case 'plan_invalid':
      view.warnings += 1;
      return;
    case 'run_stopped':
      view.stopped = { status: str(data, 'status') ?? 'aborted', exitCode: null, reason: str(data, 'reason') ?? '', code: null };
      view.status = statusOf(data.status) ?? 'aborted';
      view.pausing = false;
      view.active = null;
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
      view.mergedInto = str(data, 'into') ?? 'the original branch';
      return;
    default:
      applyStepEvent(view, event);
      applyGateEvent(view, event);
  }
}

function finish(view: RunView, event: RunLogEvent): void {
  const status = str(event.data, 'status') ?? 'failed';
  view.outcome = { status, exitCode: num(event.data, 'exit_code'), reason: str(event.data, 'reason') ?? '', code: str(event.data, 'code') };
  view.status = statusOf(status) ?? 'failed';
  view.phase = 'finished';
  view.active = null;
  view.stopped = null;
  view.pausing = false;
  closePlans(view, status === 'complete');
  for (const gateId of view.gateOrder) {
    const gate = view.gates[gateId];
    if (gate && (gate.status === 'pending' || gate.status === 'open')) view.gates[gateId] = { ...gate, status: 'abandoned' };
  }
}

function statusOf(value: unknown): RunView['status'] {
  const parsed = RunStatusSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function modelsOf(value: unknown): Record<string, string> {
  const models: Record<string, string> = {};
  for (const [role, config] of Object.entries(record(value) ?? {})) {
    const spec = typeof config === 'string' ? config : str(record(config) ?? {}, 'model');
    if (spec) models[role] = spec;
  }
  return models;
}

function agentOf(view: RunView, role: string): AgentStats {
  return view.agents[role] ?? { role, calls: 0, promptTokens: 0, completionTokens: 0, callMs: 0, failures: 0, lastModel: null };
}

function startCall(view: RunView, event: RunLogEvent): void {
  const model = str(event.data, 'model');
  view.active = { role: event.role, purpose: str(event.data, 'purpose') ?? '', stepId: str(event.data, 'step_id'), model, sinceTs: event.ts };
  view.callStarts[event.role] = event.ts;
  view.agents[event.role] = { ...agentOf(view, event.role), lastModel: model ?? agentOf(view, event.role).lastModel };
}

function endCall(view: RunView, event: RunLogEvent): void {
  const agent = agentOf(view, event.role);
  const usage = record(event.data.usage);
  const started = view.callStarts[event.role];
  const elapsed = started ? (msBetween(started, event.ts) ?? 0) : 0;
  delete view.callStarts[event.role];
  view.agents[event.role] = {
    ...agent,
    calls: agent.calls + (num(event.data, 'calls') ?? 1),
    promptTokens: agent.promptTokens + (usage ? (num(usage, 'prompt_tokens') ?? 0) : 0),
    completionTokens: agent.completionTokens + (usage ? (num(usage, 'completion_tokens') ?? 0) : 0),
    callMs: agent.callMs + elapsed,
    failures: agent.failures + (event.type === 'agent_failed' || event.type === 'agent_raw' ? 1 : 0),
  };
  if (view.active?.role === event.role) view.active = null;
}

function testOf(event: RunLogEvent): TestView {
  const { data } = event;
  const counts = record(data.counts);
  const failure = record(data.first_failure);
  const status = str(data, 'status');
  return {
    seq: event.seq,
    ts: event.ts,
    stepId: str(data, 'task_id') ?? str(data, 'step_id'),
    purpose: str(data, 'purpose') ?? 'step',
    status: status === 'PASS' || status === 'FAIL' || status === 'INFRA_ERROR' ? status : 'INFRA_ERROR',
    exitCode: num(data, 'exit_code'),
    counts: counts
      ? { passed: num(counts, 'passed') ?? 0, failed: num(counts, 'failed') ?? 0, skipped: num(counts, 'skipped') ?? 0, total: num(counts, 'total') ?? 0 }
      : null,
    firstFailure: failure ? { testId: str(failure, 'test_id') ?? '', message: str(failure, 'message') ?? '' } : null,
    report: str(data, 'report') ?? '',
    reason: str(data, 'reason'),
    verifyRunId: str(data, 'verify_run_id'),
    durationMs: num(data, 'duration_ms'),
    coveragePercent: num(data, 'coverage_percent'),
    tools: records(data.tools).map((tool) => ({ name: str(tool, 'name') ?? '?', status: str(tool, 'status') ?? '?', required: tool.required !== false })),
  };
}
