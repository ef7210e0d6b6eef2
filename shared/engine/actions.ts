import type { ErrorCode } from '../errors';
import type { ModelRole } from '../schemas/roles';
import type { StoppedStatus } from '../schemas/run';
import type { AgentOutputOutcome } from './agentOutputs';
import type { AgentPurpose } from './agentPurpose';
import type { CallUsage } from './callUsage';
import type { PendingEvent } from './runEvents';
import type { PendingGate, TestSummary, RunState } from './runState';
import type { UserEditRecord } from './userEdit';

/**
 * `preflight`: seed 001's run before any change (green means nothing to do). `baseline`: the same run in
 * every other workflow, only recorded: the suite every later verification is compared with.
 * `final`: seed 002's final full test run, before the goal gate's review.
 */
export type VerifyPurpose = 'preflight' | 'baseline' | 'step' | 'final';

/** The one effect the engine must execute next. */
export type EngineAction =
  | { kind: 'prepare' }
  | { kind: 'verify'; purpose: VerifyPurpose }
  | { kind: 'agent'; role: ModelRole; purpose: AgentPurpose }
  | { kind: 'apply' }
  | { kind: 'await_user'; gate: PendingGate }
  | { kind: 'internal' }
  | { kind: 'finish' };

/** What executing an action produced; `applyOutcome` turns it into the next state and log events. */
export type ActionOutcome =
  | { kind: 'internal' }
  | {
      kind: 'prepared';
      workspace: NonNullable<RunState['workspace']>;
      head: string;
      test_command: string[] | null;
      /** `detected: …` when the command was detected, null when configured. */
      test_command_source?: string | null;
      /** What the setup did, for the report (null without one). */
      setup_note?: string | null;
    }
  /** An answer, typed by its purpose (validated where it arrived). */
  | AgentOutputOutcome
  /** The agent answered seed 000's `{"status":"error","reason"}`. */
  | { kind: 'agent_declined'; role: ModelRole; purpose: AgentPurpose; reason: string; calls: number; usage: CallUsage }
  /** The call failed after every retry. */
  | {
      kind: 'agent_failed';
      role: ModelRole;
      purpose: AgentPurpose;
      code: ErrorCode;
      message: string;
      calls: number;
      usage: CallUsage;
      /** The broken answer (cut off, malformed) by its key on this head, and how many tries of the call gave it. */
      answer?: { key: string; times: number };
    }
  /** `unrelated`: the change's hunks classed as unrelated to the task, for its gates (where none reviews it, they were refused). */
  | { kind: 'applied'; commit: string | null; head: string; files: string[]; unrelated?: string[] }
  | { kind: 'apply_rejected'; code: ErrorCode; message: string; rule: string | null; path: string | null }
  | { kind: 'verified'; purpose: VerifyPurpose; test: TestSummary }
  /** `edit`: the person's own change, already committed on the run branch, approved with the gate. */
  | {
      kind: 'user_decision';
      gate_id: string;
      approved: boolean;
      comment: string | null;
      feedback?: string | null;
      edit?: UserEditRecord;
    }
  | { kind: 'fatal'; code: ErrorCode; message: string }
  /** Seed 002: the current step used its time budget before another attempt. */
  | { kind: 'step_budget_exhausted'; reason: string }
  /** Seed 002: execution used its share (80% of T): no step starts any more. */
  | { kind: 'execution_budget_exhausted'; reason: string }
  /** Seed 001: the test command is not in the ShellTool allowlist; nothing was created. */
  | { kind: 'command_rejected'; command: string; reason: string }
  | { kind: 'stopped'; reason: StoppedStatus; detail?: string }
  /** The user ended the run for good (a stop leaves it resumable; this does not). */
  | { kind: 'cancelled' };

export interface Transition {
  state: RunState;
  events: PendingEvent[];
}

/** Facts from outside the state a decision may depend on. */
export interface DecisionContext {
  /** Milliseconds of run time used so far, across sessions. */
  elapsed_ms: number;
}
