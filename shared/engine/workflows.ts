import { z } from 'zod';
import { GateModesSchema } from '../schemas/gates';
import { WorkflowNameSchema, type WorkflowName } from '../schemas/workflowName';

import { EditFormatNameSchema, LimitsSchema } from './runConfig';

/**
 * A workflow is data: which stages of the one pipeline run and with what defaults. The engine
 * never branches on a workflow's name, only on these fields.
 */
export const WorkflowSchema = z.object({
  name: WorkflowNameSchema,
  seed: z.string(),
  description: z.string(),
  /** Seed 001: run the tests first; green means nothing to do. */
  preflight_test: z.boolean(),
  /** Seed 004: read-only Scouts answer the Editor's questions before planning. */
  scouts: z.boolean(),
  /** `planner`: the Planner breaks the goal into tasks. `single_task`: the goal is the one task. */
  planning: z.enum(['planner', 'single_task']),
  /** The Planner's output shape: seed 000 `tasks` or seed 002 `steps` (complexity, dependencies). */
  plan_schema: z.enum(['tasks', 'steps']),
  /** The model role that writes code: the Coder, or seed 004's Editor. */
  writer: z.enum(['coder', 'editor']),
  /** `report`: seed 000's Tester summary. `fix_plan`: seed 002's fix plan with an exploratory pass. */
  tester: z.enum(['none', 'report', 'fix_plan']),
  /** What the writer sees of a failed attempt. */
  feedback: z.enum(['test_output', 'first_failure', 'fix_plan']),
  /**
   * What the writer is shown of a failed test run: seed 000's truncated `report`, seed 004's `tail`
   * (the last 200 lines), or the failure-focused `excerpt` (every other workflow).
   */
  failure_view: z.enum(['report', 'tail', 'excerpt']),
  /** When a task runs out of attempts: stop the run (seed 000/001/003) or mark it failed and go on (seed 002). */
  on_task_failure: z.enum(['halt', 'continue']),
  /** Seed 002 escalation levels from Supervisor scores. */
  escalation: z.boolean(),
  /** Seed 004: a failed verify loop is the Editor's to fix until REPLAN / hard stop. */
  stuck_report: z.boolean(),
  /** Seed 001's ShellTool: the test command and verification tools must pass the allowlist. */
  allowlist_commands: z.boolean(),
  /** Seed 001: an approved run is pushed (to `origin` when the repository has one). */
  push_on_approval: z.boolean(),
  defaults: z.object({
    edit_format: EditFormatNameSchema,
    artifacts_only: z.boolean(),
    tests_read_only: z.boolean(),
    limits: LimitsSchema,
    gates: GateModesSchema,
  }),
});
export type Workflow = z.infer<typeof WorkflowSchema>;

const baseLimits = {
  max_attempts_per_task: 1,
  max_plan_attempts: 3,
  max_fix_cycles: 0,
  replan_after_failures: 0,
  hard_stop_verify_loops: 0,
  max_subplan_depth: 0,
  max_failed_steps: 0,
  agent_retries: 3,
  test_timeout_ms: 120_000,
};
const noGates = { plan: 'off', code: 'off', step: 'off', goal: 'off' } as const;

export const WORKFLOWS = {
  minimal: {
    name: 'minimal',
    seed: '000',
    description: 'Plan → per task: code (whole files, artifacts only) → test → next task, or halt on failure.',
    preflight_test: false,
    scouts: false,
    planning: 'planner',
    plan_schema: 'tasks',
    writer: 'coder',
    tester: 'report',
    feedback: 'test_output',
    failure_view: 'report',
    on_task_failure: 'halt',
    escalation: false,
    stuck_report: false,
    allowlist_commands: false,
    push_on_approval: false,
    defaults: {
      edit_format: 'whole-file',
      artifacts_only: true,
      tests_read_only: true,
      limits: { ...baseLimits, max_plan_attempts: 1 },
      gates: noGates,
    },
  },
  'dev-agent': {
    name: 'dev-agent',
    seed: '001',
    description: 'Run the tests; fix the first failure with a diff, commit, re-test, until the Supervisor approves.',
    preflight_test: true,
    scouts: false,
    planning: 'single_task',
    plan_schema: 'steps',
    writer: 'coder',
    tester: 'none',
    feedback: 'first_failure',
    failure_view: 'excerpt',
    on_task_failure: 'halt',
    escalation: false,
    stuck_report: false,
    allowlist_commands: true,
    push_on_approval: true,
    defaults: {
      edit_format: 'unified-diff',
      artifacts_only: false,
      tests_read_only: false,
      limits: { ...baseLimits, max_attempts_per_task: 5 },
      gates: { ...noGates, step: 'auto' },
    },
  },
  'retry-loop': {
    name: 'retry-loop',
    seed: '003',
    description: 'Generate, test, patch with the failing output fed back, up to max retries; then a hard stop.',
    preflight_test: false,
    scouts: false,
    planning: 'single_task',
    plan_schema: 'steps',
    writer: 'coder',
    tester: 'none',
    feedback: 'test_output',
    failure_view: 'excerpt',
    on_task_failure: 'halt',
    escalation: false,
    stuck_report: false,
    allowlist_commands: false,
    push_on_approval: false,
    defaults: {
      edit_format: 'whole-file',
      artifacts_only: false,
      tests_read_only: false,
      limits: { ...baseLimits, max_attempts_per_task: 4 },
      gates: noGates,
    },
  },
  supervised: {
    name: 'supervised',
    seed: '002',
    description: 'Supervisor-gated plan, code, step and goal; sub-plans for blocked steps; fix cycles; time budget.',
    preflight_test: false,
    scouts: false,
    planning: 'planner',
    plan_schema: 'steps',
    writer: 'coder',
    tester: 'fix_plan',
    feedback: 'fix_plan',
    failure_view: 'excerpt',
    on_task_failure: 'continue',
    escalation: true,
    stuck_report: false,
    allowlist_commands: false,
    push_on_approval: false,
    defaults: {
      edit_format: 'search-replace',
      artifacts_only: false,
      tests_read_only: false,
      limits: {
        ...baseLimits,
        max_attempts_per_task: 3,
        max_fix_cycles: 3,
        max_subplan_depth: 3,
        max_failed_steps: 3,
        max_plan_attempts: 5,
      },
      gates: { plan: 'auto', code: 'auto', step: 'auto', goal: 'auto' },
    },
  },
  'editor-scouts': {
    name: 'editor-scouts',
    seed: '004',
    description: 'One Editor writes; read-only Scouts map code and tests; REPLAN after 3 failures, stop at 12.',
    preflight_test: false,
    scouts: true,
    planning: 'single_task',
    plan_schema: 'steps',
    writer: 'editor',
    tester: 'none',
    feedback: 'first_failure',
    failure_view: 'tail',
    on_task_failure: 'halt',
    escalation: false,
    stuck_report: true,
    allowlist_commands: false,
    push_on_approval: false,
    defaults: {
      edit_format: 'search-replace',
      artifacts_only: false,
      tests_read_only: false,
      limits: { ...baseLimits, max_attempts_per_task: 12, replan_after_failures: 3, hard_stop_verify_loops: 12 },
      gates: noGates,
    },
  },
} as const satisfies Record<WorkflowName, Workflow>;
