import type { RunState } from '../../../shared/engine/runState';
import type { Workflow } from '../../../shared/engine/workflows';
import type { AgentContextData } from '../../../shared/schemas/agentContext';
import type { BuiltContext, RepoMapOptions } from '../context/index';
import type { ContextItem, PromptCounter } from '../llm/types';
import type { EditFormat } from '../edits/types';
import type { ReadOnlyTools } from '../tools/types';
import type { WholeFiles } from './contextFiles';
import type { EarlierRun } from './earlierRunContext';
import type { PromptLibrary } from './promptLibrary';
import type { PromptSessions } from './promptSession';

// What a role's input is built from and into, apart from the registry so the input builders can name it.

export interface AgentContext {
  state: RunState;
  workflow: Workflow;
  /** Read-only tools rooted at the run's work dir. */
  tools: ReadOnlyTools;
  prompts: PromptLibrary;
  editFormat: EditFormat;
  /** Project notes (seed 000's kb/), optional context for the Planner. */
  knowledge: ContextItem[];
  /** The latest Scout report (seed 004), when there is one. */
  scoutReport: string | null;
  /** A follow-up's earlier run (its goal, how its plan ended, its diff), for the Planner and the writer; absent otherwise. */
  earlierRun?: EarlierRun | null;
  /**
   * How the repo map is built: where it keeps its facts by blob id between runs, and whether the engine
   * vouches that the work tree equals its index (then git is not asked what changed).
   */
  repoMap?: RepoMapOptions;
  /** The current step's change as a unified diff (its start to the head), for its reviewers; absent in tests that need none. */
  changeDiff?: () => Promise<string>;
  /** The run's prompt sessions, one per role: a role's context keeps the order its last call saw (prefix reuse). */
  sessions?: PromptSessions;
  /** Told what a call's budgeted context included and dropped, before the call is made. */
  onContextBuilt?: (report: ContextReport) => void;
  /** Told the role's input object before it becomes the message's JSON (the call's record lifts the feedback out of it). */
  onInputBuilt?: (input: Record<string, unknown>) => void;
  /** How the called role's model counts tokens (runAgent sets it from the router); absent: the estimate. */
  promptCounter?: PromptCounter | null;
}

/** What one agent call's budgeted context held (the `agent_context` event of the run log, less purpose and step). */
export type ContextReport = Omit<AgentContextData, 'purpose' | 'step_id'>;

export interface AgentInput {
  input: Record<string, unknown>;
  context: ContextItem[];
  /** Context chosen to fill what the mandatory prompt leaves of the role's window (see runAgent's buildMessages). */
  budgeted?: (budgetTokens: number) => Promise<BuiltContext>;
  /**
   * A whole-file writer's files to rewrite: each must be in the context whole, and the answer is as
   * long as they are, so the call's answer budget grows with them (runAgent's buildMessages).
   */
  wholeFiles?: WholeFiles;
}

/** The task as every role's input shows it. */
export interface TaskView {
  id: string;
  title: string;
  rationale: string;
  acceptance: string;
  artifacts: string[];
}
