import type { z } from 'zod';
import type { StepStatusSchema } from '../engine/runState';
import type { RunStatus } from '../schemas/run';

/** `stopped`: in progress when the run stopped to be resumed (paused, out of time…); a resume picks it up again. */
export type StepStatus = z.infer<typeof StepStatusSchema> | 'stopped';

export interface StepView {
  /** `<plan_id>/<step_id>`: a re-plan may reuse step ids. */
  key: string;
  id: string;
  planId: string;
  title: string;
  rationale: string;
  acceptance: string;
  artifacts: string[];
  complexity: string | null;
  dependsOn: string[];
  status: StepStatus;
  attempts: number;
  commits: string[];
  failReason: string | null;
  /** Sub-plans made for this step when it was blocked (seed 002), oldest first. */
  subPlanIds: string[];
  /** The model calls made while it was the current step, and its time. */
  spend: StepSpend;
}

/** What a step cost: model calls and tokens (cached: served from a reused KV-cache prefix), and time. */
export interface StepSpend {
  calls: number;
  promptTokens: number;
  cachedTokens: number;
  generatedTokens: number;
  /** Some counts were estimates (oracle, replay). */
  estimated: boolean;
  /** Wall time between its calls and their answers, summed. */
  callMs: number;
  /** Its first start and its last end (a retried step spans every attempt); null until known. */
  startedTs: string | null;
  endedTs: string | null;
}

export type PlanStatus = 'proposed' | 'in_review' | 'approved' | 'rejected' | 'in_progress' | 'completed' | 'failed';

export interface PlanView {
  planId: string;
  depth: number;
  parentStepKey: string | null;
  analysis: string;
  stepKeys: string[];
  status: PlanStatus;
  seq: number;
}

export interface VerdictView {
  approved: boolean;
  score: number;
  threshold: number;
  issues: string[];
  feedback: string;
  escalation: string | null;
  consecutiveIssues: number | null;
}

/** `abandoned`: the run ended for good while the gate was open. */
export type GateStatus = 'open' | 'pending' | 'approved' | 'rejected' | 'abandoned';

export interface GateView {
  gateId: string;
  kind: string;
  stepId: string | null;
  mode: string;
  status: GateStatus;
  verdict: VerdictView | null;
  decidedBy: string | null;
  comment: string | null;
  editedFeedback: string | null;
  /** The Supervisor failed every retry and the gate passed unreviewed (logs from before gates waited for a person). */
  fallback: boolean;
  /** Why the Supervisor could not review this gate: a person decides it. */
  unreviewed: string | null;
  /** Existing tests the change modifies: passing the gate approves them (never `--yes`). */
  testFiles: string[];
  /** Hunks classed as unrelated to the task, shown apart for the reviewer. */
  unrelated: string[];
  openedSeq: number;
  openedTs: string;
}

export interface TestCounts {
  passed: number;
  failed: number;
  skipped: number;
  total: number;
}

export interface TestView {
  seq: number;
  ts: string;
  stepId: string | null;
  purpose: string;
  status: 'PASS' | 'FAIL' | 'INFRA_ERROR';
  exitCode: number | null;
  counts: TestCounts | null;
  firstFailure: { testId: string; message: string } | null;
  reason: string | null;
  verifyRunId: string | null;
  durationMs: number | null;
  coveragePercent: number | null;
  tools: { name: string; status: string; required: boolean }[];
}

export interface CommitView {
  seq: number;
  sha: string;
  taskId: string | null;
  files: string[];
}

export interface AgentStats {
  role: string;
  calls: number;
  promptTokens: number;
  /** Of the prompt tokens, those served from a reused KV-cache prefix (absent from logs before they were counted: 0). */
  cachedTokens: number;
  completionTokens: number;
  /** Some counts were estimates (oracle, replay). */
  estimated: boolean;
  /** Wall time between each call and its answer, summed (includes prompt evaluation). */
  callMs: number;
  failures: number;
  lastModel: string | null;
}

export interface ActiveAgent {
  role: string;
  purpose: string;
  stepId: string | null;
  model: string | null;
  sinceTs: string;
}

export interface RunCounters {
  fixCycle: number;
  fixCycleMax: number | null;
  retries: number;
  replans: number;
  planAttempts: number;
  consecutiveVerifyFailures: number;
  totalVerifyLoops: number;
}

export interface RunOutcome {
  status: string;
  exitCode: number | null;
  reason: string;
  /** The error that ended the run (`result.code`: MODEL_LOAD_FAILED, GIT_NO_COMMITS…), or null. */
  code: string | null;
}

export interface SeqRange {
  from: number;
  to: number;
}

/** Everything the run view shows, derived only from the run's log events (`reduceRunEvents`). */
export interface RunView {
  runId: string | null;
  goal: string;
  workflow: string | null;
  seed: string | null;
  models: Record<string, string>;
  status: RunStatus | null;
  phase: string | null;
  currentStepId: string | null;
  branch: string | null;
  baseCommit: string | null;
  workDir: string | null;
  testCommand: string[] | null;
  plans: Record<string, PlanView>;
  /** Top-level plans in the order they were made (re-plans append). */
  rootPlanIds: string[];
  steps: Record<string, StepView>;
  /** Which step a bare step id means now: the newest plan that has it. */
  stepKeyById: Record<string, string>;
  gates: Record<string, GateView>;
  gateOrder: string[];
  tests: TestView[];
  commits: CommitView[];
  rolledBack: string[];
  agents: Record<string, AgentStats>;
  active: ActiveAgent | null;
  /** Calls in flight per role, to time each answer. */
  callStarts: Record<string, string>;
  counters: RunCounters;
  outcome: RunOutcome | null;
  stopped: RunOutcome | null;
  /** The user asked to pause; the current operation is finishing. */
  pausing: boolean;
  undone: boolean;
  mergedInto: string | null;
  warnings: number;
  /** Ranges of events whose effects were redone after a crash; never reduced. */
  orphaned: SeqRange[];
  /** A live `run_resumed` named events already reduced: rebuild from the log. */
  needsRebuild: boolean;
  startedTs: string | null;
  lastTs: string | null;
  lastSeq: number;
  reduced: number;
}
