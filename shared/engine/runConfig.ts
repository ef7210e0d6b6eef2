import { z } from 'zod';
import { ModelRoleSchema } from '../schemas/roles';
import { WorkflowNameSchema } from '../schemas/workflowName';
import { GateModesSchema, GateThresholdsSchema } from '../schemas/gates';

export const EditFormatNameSchema = z.enum(['whole-file', 'unified-diff', 'search-replace']);

export const RoleModelSchema = z.object({
  model: z.string().min(1).max(4096),
  context_size: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  max_tokens: z.number().int().positive().optional(),
  /** Prompt-lookup decoding for `llama:` models (writer roles, whose answers copy their input). */
  prompt_lookup: z.boolean().optional(),
});
export type RoleModel = z.infer<typeof RoleModelSchema>;

/** Seed 003's ToolRegistry: verification tools run in registration order, each reported on its own. */
export const VerificationToolSchema = z.object({
  name: z.string().min(1).max(64),
  argv: z.array(z.string().max(4096)).min(1).max(64),
  /** A failing optional tool is reported but does not fail the step. */
  required: z.boolean().default(true),
  /** The tool's own time limit; null: the test timeout. */
  timeout_ms: z.number().int().positive().nullable().default(null),
});
export type VerificationTool = z.infer<typeof VerificationToolSchema>;

export const LimitsSchema = z.object({
  /** Coding attempts per task before the task fails (retry-loop: 1 + max_retries; dev-agent: max_iterations). */
  max_attempts_per_task: z.number().int().min(1).max(100),
  /** Plans the Planner may produce after rejections before the run ends. */
  max_plan_attempts: z.number().int().min(1).max(20),
  /** Seed 002 Tester → Coder fix cycles within one attempt. */
  max_fix_cycles: z.number().int().min(0).max(20),
  /** Seed 004: REPLAN after this many consecutive verify failures (0 = never). */
  replan_after_failures: z.number().int().min(0).max(100),
  /** Seed 004: hard stop after this many verify loops in total (0 = no limit). */
  hard_stop_verify_loops: z.number().int().min(0).max(1000),
  /** Seed 002: nested sub-plans for blocked steps (0 = none, at most 3). */
  max_subplan_depth: z.number().int().min(0).max(3),
  /** Seed 002: "if too many failures, escalate": the run ends after this many failed steps (0 = no limit). */
  max_failed_steps: z.number().int().min(0).max(100),
  /** Agent error recovery: retries of a failed model call, with backoff (seed 002: 3). */
  agent_retries: z.number().int().min(0).max(10),
  test_timeout_ms: z.number().int().positive(),
});
export type Limits = z.infer<typeof LimitsSchema>;

/** Where a worktree run lives and what prepares it (docs/workspace.md, "Run workspaces"). */
export const WorkspaceConfigSchema = z.object({
  /** Folder for run worktrees; null: LATHE_WORKTREE_ROOT, else the per-platform default. */
  worktree_root: z.string().min(1).max(1024).nullable(),
  /** Run in the fresh worktree before anything else, for what cannot be shared with the checkout; never a shell string. */
  setup_command: z.array(z.string().max(4096)).min(1).max(64).nullable(),
  setup_timeout_ms: z.number().int().positive(),
  /** Ignored folder names linked from the checkout; null: the built-in list (node_modules, .venv, venv, vendor, …). */
  dependency_folders: z
    .array(
      z
        .string()
        .min(1)
        .max(100)
        .regex(/^[^/\\]+$/),
    )
    .max(50)
    .nullable(),
});
export type WorkspaceConfig = z.infer<typeof WorkspaceConfigSchema>;

export const DEFAULT_WORKSPACE_CONFIG: WorkspaceConfig = {
  worktree_root: null,
  setup_command: null,
  setup_timeout_ms: 10 * 60_000,
  dependency_folders: null,
};

/**
 * What the test sandbox shows beyond the system, the toolchains and the run (docs/workspace.md,
 * "What the sandbox shows"): `read_paths`, absolute, read-only. Only the user's own config sets it.
 */
export const SandboxConfigSchema = z.object({
  read_paths: z.array(z.string().min(2).max(4096).regex(/^\//, 'must be an absolute path')).max(64),
});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
export const DEFAULT_SANDBOX_CONFIG: SandboxConfig = { read_paths: [] };

/**
 * Which model servers beyond this machine a run may reach (`models.allow_hosts`), and the environment
 * variable holding their bearer token (`models.token_env`: its name only; the token is never saved).
 */
export const ModelAccessSchema = z.object({
  allow_hosts: z.array(z.string().min(1).max(253)).max(32),
  token_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/),
});
export type ModelAccess = z.infer<typeof ModelAccessSchema>;
export const DEFAULT_MODEL_ACCESS: ModelAccess = { allow_hosts: [], token_env: 'LATHE_MODEL_TOKEN' };

/** Everything a run needs to behave the same after a resume; frozen into state.json at start. */
export const RunConfigSchema = z.object({
  workflow: WorkflowNameSchema,
  edit_format: EditFormatNameSchema,
  artifacts_only: z.boolean(),
  tests_read_only: z.boolean(),
  /**
   * `protect`: the repository's existing test files are not the writer's to change — refused where no
   * gate reviews the change, and needing an explicit approval (never `--yes`) where one does; a run
   * whose tests are fewer than at its start fails. `allow`: the user lets the run change them.
   */
  tests_policy: z.enum(['protect', 'allow']).default('protect'),
  /** null: detect from the repository. */
  test_command: z.array(z.string().max(4096)).min(1).max(64).nullable(),
  /** Seed 004's build step, run before the tests in the same sandbox; null: none. A run saved before it existed has none. */
  build_command: z.array(z.string().max(4096)).min(1).max(64).nullable().default(null),
  extra_verification: z.array(VerificationToolSchema).max(10),
  limits: LimitsSchema,
  gates: GateModesSchema,
  thresholds: GateThresholdsSchema,
  /** Whole-run time limit; null: none. */
  time_limit_ms: z.number().int().positive().nullable(),
  branch_prefix: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._/-]+$/),
  allow_dirty: z.boolean(),
  models: z.partialRecord(ModelRoleSchema, RoleModelSchema),
  /** Runs saved before this existed read as the defaults (loopback only). */
  model_access: ModelAccessSchema.default(DEFAULT_MODEL_ACCESS),
  shell_allowlist: z.array(z.string().min(1).max(128)).max(64),
  kb_dir: z.string().min(1).max(300),
  /**
   * Seed 001's push of an approved run: `remote` null means `origin` when the repository has one; with
   * `enabled`, a push that fails ends the run with exit 2 (an unrecoverable git error).
   */
  push: z.object({
    remote: z.string().max(200).nullable(),
    write_pr_description: z.boolean(),
    enabled: z.boolean().default(false),
  }),
  /** Runs saved before this existed read as the defaults. */
  workspace: WorkspaceConfigSchema.default(DEFAULT_WORKSPACE_CONFIG),
  /** Runs saved before this existed read as the defaults (nothing more shown). */
  sandbox: SandboxConfigSchema.default(DEFAULT_SANDBOX_CONFIG),
});
export type RunConfig = z.infer<typeof RunConfigSchema>;
