import type { ModelRole } from '../schemas/roles';
import { gateUsesSupervisor, GATE_KINDS } from '../schemas/gates';
import type { Workflow } from './workflows';
import type { RunConfig } from './runConfig';

/** The model roles a run can call, so a missing model is reported before the run starts. */
export function rolesUsed(workflow: Workflow, config: RunConfig): ModelRole[] {
  const roles = new Set<ModelRole>([workflow.writer]);
  if (workflow.planning === 'planner' || config.limits.max_subplan_depth > 0) roles.add('planner');
  if (workflow.tester !== 'none') roles.add('tester');
  if (GATE_KINDS.some((kind) => gateUsesSupervisor(config.gates[kind]))) roles.add('supervisor');
  if (workflow.scouts) roles.add('scout');
  return [...roles].sort();
}
