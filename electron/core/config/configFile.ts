import { z } from 'zod';
import { GateModeSchema } from '../../../shared/schemas/gates';
import { EditFormatNameSchema, VerificationToolSchema } from '../../../shared/engine/runConfig';
import { MODEL_ROLES } from '../../../shared/schemas/roles';

const RoleModelEntrySchema = z.union([
  z.string().min(1),
  z.strictObject({
    model: z.string().min(1),
    context_size: z.number().int().positive().optional(),
    temperature: z.number().min(0).max(2).optional(),
    max_tokens: z.number().int().positive().optional(),
    prompt_lookup: z.boolean().optional(),
  }),
]);

/** Seed 003's ToolRegistry entry as written: argv as a list or a command line, an optional `timeout` (2m, 90s). */
const ConfigToolSchema = z.strictObject({
  name: VerificationToolSchema.shape.name,
  argv: z.union([z.string().min(1), VerificationToolSchema.shape.argv]),
  required: z.boolean().optional(),
  timeout: z.union([z.string(), z.number()]).optional(),
});
export type ConfigTool = z.infer<typeof ConfigToolSchema>;

const roles = ['default', ...MODEL_ROLES] as const;

/**
 * `lathe.config.yaml` (and `resources/defaults.yaml`): every key optional, unknown keys are errors.
 * Seed 001's keys are accepted as they are (`max_iterations`, a `test_command` string, `git.auto_pr`),
 * and seed 003's `max_retries`.
 */
export const ConfigFileSchema = z.strictObject({
  workflow: z.string().optional(),
  agents: z
    .strictObject(
      Object.fromEntries(roles.map((role) => [role, RoleModelEntrySchema.optional()])) as Record<
        (typeof roles)[number],
        z.ZodOptional<typeof RoleModelEntrySchema>
      >,
    )
    .optional(),
  /** Seed 001 spelling: `model: {dev_agent, supervisor}`. */
  model: z.strictObject({ dev_agent: z.string().optional(), supervisor: z.string().optional() }).optional(),
  policies: z
    .strictObject({
      edit_format: EditFormatNameSchema.optional(),
      artifacts_only: z.boolean().optional(),
      tests_read_only: z.boolean().optional(),
      /** `protect` (default): the repository's existing tests are not the writer's to change; `allow`: they are. */
      tests: z.enum(['protect', 'allow']).optional(),
      test_command: z.union([z.string().min(1), z.array(z.string()).min(1)]).optional(),
      build_command: z.union([z.string().min(1), z.array(z.string()).min(1)]).optional(),
      test_timeout: z.union([z.string(), z.number()]).optional(),
      extra_verification: z.array(ConfigToolSchema).optional(),
      time_limit: z.union([z.string(), z.number()]).optional(),
      max_attempts_per_task: z.number().int().min(1).optional(),
      max_plan_attempts: z.number().int().min(1).optional(),
      max_fix_cycles: z.number().int().min(0).optional(),
      replan_after_failures: z.number().int().min(0).optional(),
      hard_stop_verify_loops: z.number().int().min(0).optional(),
      max_subplan_depth: z.number().int().min(0).max(3).optional(),
      max_failed_steps: z.number().int().min(0).optional(),
      agent_retries: z.number().int().min(0).optional(),
      gates: z
        .strictObject({
          plan: GateModeSchema.optional(),
          code: GateModeSchema.optional(),
          step: GateModeSchema.optional(),
          goal: GateModeSchema.optional(),
        })
        .optional(),
      thresholds: z
        .strictObject({
          plan: z.number().optional(),
          code: z.number().optional(),
          step: z.number().optional(),
          goal: z.number().optional(),
        })
        .optional(),
      allowlist: z.array(z.string()).optional(),
      allow_dirty: z.boolean().optional(),
      /** Extra read-only paths for the test sandbox; never from the repository's own file (resolveConfig.ts). */
      sandbox: z.strictObject({ read_paths: z.array(z.string().min(1)).optional() }).optional(),
    })
    .optional(),
  max_iterations: z.number().int().min(1).optional(),
  max_retries: z.number().int().min(0).optional(),
  test_command: z.union([z.string().min(1), z.array(z.string()).min(1)]).optional(),
  git: z
    .strictObject({
      remote: z.string().nullable().optional(),
      branch_prefix: z.string().optional(),
      auto_pr: z.boolean().optional(),
      /** Push the approved run branch (dev-agent: on). */
      push: z.boolean().optional(),
      write_pr_description: z.boolean().optional(),
    })
    .optional(),
  kb_dir: z.string().optional(),
  /** Model servers beyond this machine: hosts (`name` or `name:port`) and the token's variable. */
  models: z
    .strictObject({ allow_hosts: z.array(z.string().min(1)).optional(), token_env: z.string().min(1).optional() })
    .optional(),
  workspace: z
    .strictObject({
      worktree_root: z.string().min(1).nullable().optional(),
      setup: z
        .union([z.string().min(1), z.array(z.string()).min(1)])
        .nullable()
        .optional(),
      setup_timeout: z.union([z.string(), z.number()]).optional(),
      dependency_folders: z.array(z.string().min(1)).optional(),
    })
    .optional(),
});
export type ConfigFile = z.infer<typeof ConfigFileSchema>;
