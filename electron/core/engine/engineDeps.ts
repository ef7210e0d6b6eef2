import type { ModelRouterOptions } from '../llm/routerOptions';
import type { ModelRouter } from '../llm/types';
import type { AppliedEditSet, EditFormat, EditFormatName, EditPolicy, PlannedEditSet } from '../edits/types';
import type { ApplyOptions, GitFacade, WorkspaceSetupRequest, WorkspaceSetupResult } from '../git/types';
import type { DetectedTestCommand, VerifyRequest, VerifyResult } from '../verifier/types';
import type { ReadOnlyTools } from '../tools/types';

/** Everything the engine does to the world goes through these; tests may swap any of them. */
export interface EngineDeps {
  git: GitFacade;
  verify(request: VerifyRequest): Promise<VerifyResult>;
  detectTestCommand(dir: string): Promise<DetectedTestCommand | null>;
  getEditFormat(name: EditFormatName): EditFormat;
  defaultEditPolicy(overrides?: Partial<EditPolicy>): EditPolicy;
  applyEditSet(
    workDir: string,
    planned: PlannedEditSet,
    policy: EditPolicy,
    options: ApplyOptions,
  ): Promise<AppliedEditSet>;
  createTools(root: string): ReadOnlyTools;
  createModels(options: ModelRouterOptions): ModelRouter;
  /** Runs `workspace.setup` in a fresh worktree run (once per worktree; skipped in place). */
  setupWorkspace(request: WorkspaceSetupRequest): Promise<WorkspaceSetupResult>;
  /** Keeps a Verifier artifact folder past retention (seed 004: stuck-report artifacts until resolved). */
  retainArtifacts(artifactDir: string, reason: string): Promise<void>;
  /** The stuck report was resolved (the run went green, was merged or undone): normal retention again. True when it was retained. */
  releaseArtifacts(artifactDir: string): Promise<boolean>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
