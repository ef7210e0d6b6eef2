import { DEFAULT_GATE_THRESHOLDS } from '../schemas/gates';
import type { Workflow } from './workflows';
import { DEFAULT_MODEL_ACCESS, DEFAULT_SANDBOX_CONFIG, DEFAULT_WORKSPACE_CONFIG, type RunConfig } from './runConfig';

/** Seed 001's allowlist. */
export const DEFAULT_SHELL_ALLOWLIST = ['pytest', 'npm test', 'git', 'pip', 'npm', 'make'];

/** A workflow's defaults as a full run config; files and flags are layered on top by the core. */
export function configFromWorkflow(workflow: Workflow): RunConfig {
  return {
    workflow: workflow.name,
    edit_format: workflow.defaults.edit_format,
    artifacts_only: workflow.defaults.artifacts_only,
    tests_read_only: workflow.defaults.tests_read_only,
    tests_policy: 'protect',
    test_command: null,
    build_command: null,
    extra_verification: [],
    limits: { ...workflow.defaults.limits },
    gates: { ...workflow.defaults.gates },
    thresholds: { ...DEFAULT_GATE_THRESHOLDS },
    time_limit_ms: null,
    branch_prefix: 'lathe',
    allow_dirty: false,
    models: {},
    model_access: structuredClone(DEFAULT_MODEL_ACCESS),
    shell_allowlist: [...DEFAULT_SHELL_ALLOWLIST],
    kb_dir: '.lathe/kb',
    push: { remote: null, write_pr_description: true, enabled: workflow.push_on_approval },
    workspace: { ...DEFAULT_WORKSPACE_CONFIG },
    sandbox: structuredClone(DEFAULT_SANDBOX_CONFIG),
  };
}
