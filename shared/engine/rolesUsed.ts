import type { AgentRoleName } from './actions';
import { gateUsesSupervisor, GATE_KINDS } from './gates';
import type { Preset } from './presets';
import type { RunConfig } from './runConfig';

/** The model roles a run can call, so a missing model is reported before the run starts. */
export function rolesUsed(preset: Preset, config: RunConfig): AgentRoleName[] {
  const roles = new Set<AgentRoleName>([preset.writer]);
  if (preset.planning === 'planner' || config.limits.max_subplan_depth > 0) roles.add('planner');
  if (preset.tester !== 'none') roles.add('tester');
  if (GATE_KINDS.some((kind) => gateUsesSupervisor(config.gates[kind]))) roles.add('supervisor');
  if (preset.scouts) roles.add('scout');
  return [...roles].sort();
}
