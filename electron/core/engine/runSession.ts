import fs from 'node:fs';
import path from 'node:path';
import type { PendingEvent } from '../../../shared/engine/runEvents';
import { effectTimeoutMs } from '../../../shared/engine/budget';
import type { Workflow } from '../../../shared/engine/workflows';
import type { PendingGate, RunState } from '../../../shared/engine/runState';
import type { UserFileEdit } from '../../../shared/engine/userEdit';
import { writerFormat } from '../../../shared/engine/editFormatFallback';
import { LatheError } from '../../../shared/errors';
import type { RunLogEvent, TransientEvent } from '../../../shared/schemas/run';
import type { AgentContext } from '../agents/agentContext';
import type { EarlierRun } from '../agents/earlierRunContext';
import { EARLIER_RUN_FILE } from './earlierRun';
import { PromptLibrary } from '../agents/promptLibrary';
import { PromptSessions } from '../agents/promptSession';
import type { ContextItem, ModelRouter } from '../llm/types';
import { secretRedactor, type Redact } from '../llm/redact';
import type { Clock, EngineDeps } from './engineDeps';
import type { RunStore } from './runStore';
import { stepDiff } from './stepDiff';

export interface GateDecision {
  approved: boolean;
  comment: string | null;
  /** The Supervisor's feedback as the user edited it; replaces it in the critique. */
  feedback?: string | null;
  /** Approve only: the person's rewrite of files in the gate's change (checked by `checkUserEdits`). */
  edits?: UserFileEdit[];
}

export interface RunCallbacks {
  /** Every log line as it is written. */
  onEvent?: (event: RunLogEvent) => void;
  /** Token stream and model loading: shown live, never logged. */
  onTransient?: (event: TransientEvent) => void;
  /** A human gate: resolve with the user's decision (the CLI asks on the terminal, the window shows a card). */
  decideGate?: (gate: PendingGate, state: RunState) => Promise<GateDecision>;
}

/** Why a gate waits for a person, in words for the stop message. */
export function gateNeedsUser(gate: PendingGate): string {
  if (gate.test_files.length > 0)
    return `the ${gate.kind} gate needs a person: the change modifies existing tests (${gate.test_files.join(', ')}), which only an explicit approval may pass`;
  return gate.unreviewed
    ? `the ${gate.kind} gate needs a person: the Supervisor could not review it (${gate.unreviewed})`
    : `gate ${gate.kind} needs a human decision`;
}

/**
 * For runs nobody watches (eval, `--yes`): approve what the Supervisor reviewed; a gate it could not
 * review never passes unseen, so the run stops there, resumable.
 */
export async function approveReviewedGate(gate: PendingGate): Promise<GateDecision> {
  if (gate.unreviewed || gate.test_files.length > 0) throw new LatheError('GATE_NEEDS_USER', gateNeedsUser(gate));
  return { approved: true, comment: null };
}

export interface RunSessionOptions {
  deps: EngineDeps;
  workflow: Workflow;
  store: RunStore;
  router: ModelRouter;
  repoRoot: string;
  /** Where the run's artifacts (scout notes, test logs) are written. */
  artifactRoot: string;
  /** Aborts the run for good (Stop). */
  signal: AbortSignal;
  clock: Clock;
  callbacks: RunCallbacks;
  retryBackoffMs: number;
  promptsDir: string;
  /** Run time spent in earlier processes, so a resumed run keeps its time budget. */
  elapsedBeforeMs: number;
  /** Ends the run after the current operation, resumable (Pause). */
  pause?: AbortSignal;
  /** The environment variable holding the model server's token (`models.token_env`): its value is never recorded. */
  tokenEnv?: string;
}

/** One process's session of a run: the effects' shared context. */
export class RunSession {
  private readonly prompts: PromptLibrary;
  /** Each role's prompt session for this process's part of the run (a resumed run starts cold, as a model's cache does). */
  private readonly promptSessions = new PromptSessions();
  private knowledge: ContextItem[] | null = null;
  private readonly startedMs: number;
  /** Time spent waiting for a person at a gate in this session: not counted against the run's budgets. */
  private waitedMs = 0;
  private timeExpired = false;
  /**
   * The commit the run's work tree is known to equal, because this process committed it and nothing
   * since could have left a change behind. Lets an apply skip its reset (two git commands); a new
   * process (a resume) knows nothing and resets.
   */
  private cleanWorkTreeAt: string | null = null;
  private redactor: Redact | null = null;
  private readonly tokenEnv: string | null;

  readonly deps: EngineDeps;
  readonly workflow: Workflow;
  readonly store: RunStore;
  readonly router: ModelRouter;
  readonly repoRoot: string;
  readonly artifactRoot: string;
  readonly signal: AbortSignal;
  readonly clock: Clock;
  readonly callbacks: RunCallbacks;
  readonly retryBackoffMs: number;
  private readonly elapsedBeforeMs: number;
  private readonly pause: AbortSignal | undefined;

  constructor(options: RunSessionOptions) {
    this.deps = options.deps;
    this.workflow = options.workflow;
    this.store = options.store;
    this.router = options.router;
    this.repoRoot = options.repoRoot;
    this.artifactRoot = options.artifactRoot;
    this.signal = options.signal;
    this.clock = options.clock;
    this.callbacks = options.callbacks;
    this.retryBackoffMs = options.retryBackoffMs;
    this.elapsedBeforeMs = options.elapsedBeforeMs;
    this.pause = options.pause;
    this.tokenEnv = options.tokenEnv ?? null;
    this.prompts = new PromptLibrary(options.promptsDir);
    this.startedMs = options.clock.now().getTime();
  }

  /** Replaces secrets in what the run records of its agent calls (the model server's token, keys in the environment). */
  get redact(): Redact {
    this.redactor ??= secretRedactor(process.env, this.tokenEnv);
    return this.redactor;
  }

  log(event: PendingEvent): void {
    this.store.append(event, this.clock.now());
  }

  transient(event: TransientEvent): void {
    this.callbacks.onTransient?.(event);
  }

  /** The run's working time: earlier sessions plus this one, less the waits at human gates. */
  elapsedMs(): number {
    return this.elapsedBeforeMs + (this.clock.now().getTime() - this.startedMs) - this.waitedMs;
  }

  remainingMs(state: RunState): number | null {
    return state.config.time_limit_ms === null ? null : Math.max(0, state.config.time_limit_ms - this.elapsedMs());
  }

  /** An effect's timeout: its own limit, cut to what is left of the run's, phase's, step's and fix cycle's budgets. */
  timeoutFor(state: RunState, ownLimitMs: number | undefined): number | undefined {
    return effectTimeoutMs(state, this.elapsedMs(), ownLimitMs);
  }

  workTreeKnownClean(head: string | null): boolean {
    return head !== null && this.cleanWorkTreeAt === head;
  }

  markWorkTreeClean(head: string | null): void {
    this.cleanWorkTreeAt = head;
  }

  /** Files the writer's last call was shown (its context): what the change may be judged against. Lost on restart, then unknown. */
  writerContextFiles: string[] = [];

  markTimeExpired(): void {
    this.timeExpired = true;
  }

  stopReason(): 'aborted' | 'time_expired' {
    return this.timeExpired ? 'time_expired' : 'aborted';
  }

  /**
   * The person's decision; a pause or a stop (Ctrl-C) ends the wait at once (PAUSED), with the gate
   * still pending: a question on the terminal would otherwise hold the stop until it is answered.
   */
  async waitForGate(gate: PendingGate, state: RunState): Promise<GateDecision> {
    const decideGate = this.callbacks.decideGate;
    if (!decideGate) throw new LatheError('NO_GATE_HANDLER', `${gateNeedsUser(gate)}, but nobody is asked`);
    const signals = [this.pause, this.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    const since = this.clock.now().getTime();
    let onStop = () => {};
    try {
      const stopped = new Promise<never>((_, reject) => {
        onStop = () => reject(new LatheError('PAUSED', `stopped while gate ${gate.gate_id} waits for a decision`));
        if (signals.some((signal) => signal.aborted)) onStop();
        else for (const signal of signals) signal.addEventListener('abort', onStop, { once: true });
      });
      return await Promise.race([decideGate(gate, state), stopped]);
    } finally {
      for (const signal of signals) signal.removeEventListener('abort', onStop);
      this.waitedMs += Math.max(0, this.clock.now().getTime() - since);
    }
  }

  async agentContext(state: RunState): Promise<AgentContext> {
    const workspace = state.workspace;
    if (!workspace) throw new LatheError('NO_WORKSPACE', 'the run has no workspace yet');
    const tools = this.deps.createTools(workspace.workDir);
    return {
      state,
      workflow: this.workflow,
      tools,
      prompts: this.prompts,
      editFormat: this.deps.getEditFormat(writerFormat(state)),
      knowledge: await this.loadKnowledge(state.config.kb_dir),
      scoutReport: this.readScoutReport(),
      earlierRun: this.readEarlierRun(state),
      changeDiff: () => stepDiff(this.deps, state),
      sessions: this.promptSessions,
      repoMap: {
        // Beside the run store: never listed, never committed, shared by the repository's runs.
        cacheFile: path.join(this.repoRoot, '.lathe', 'cache', 'repo-map.json'),
        // A run worktree this process committed, with nothing written since, equals its index.
        workTreeMatchesIndex: workspace.mode === 'worktree' && this.workTreeKnownClean(state.head),
      },
    };
  }

  /** Seed 000's knowledge notes: every `*.md` under the repo's kb folder, as low-priority Planner context. */
  private async loadKnowledge(kbDir: string): Promise<ContextItem[]> {
    if (this.knowledge) return this.knowledge;
    const dir = path.resolve(this.repoRoot, kbDir);
    const items: ContextItem[] = [];
    if (dir.startsWith(this.repoRoot + path.sep) && fs.existsSync(dir)) {
      for (const name of fs
        .readdirSync(dir)
        .filter((entry) => entry.endsWith('.md'))
        .sort()) {
        const text = fs.readFileSync(path.join(dir, name), 'utf8').slice(0, 16_000);
        items.push({ id: `kb:${name}`, text: `### Note: ${name}\n${text}\n`, priority: 100 });
      }
    }
    this.knowledge = items;
    return items;
  }

  /** A follow-up's earlier run, as frozen in its run folder when it began (runner.ts). */
  private readEarlierRun(state: RunState): EarlierRun | null {
    if (!state.follow_up_of) return null;
    const file = path.join(this.store.dir, EARLIER_RUN_FILE);
    return fs.existsSync(file) ? { runId: state.follow_up_of, text: fs.readFileSync(file, 'utf8') } : null;
  }

  private readScoutReport(): string | null {
    const latest = path.join(this.store.dir, 'context_latest.md');
    return fs.existsSync(latest) ? fs.readFileSync(latest, 'utf8').slice(0, 12_000) : null;
  }
}
