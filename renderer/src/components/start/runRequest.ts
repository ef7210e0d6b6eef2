import {
  GATE_KINDS,
  gateUsesSupervisor,
  type GateKind,
  type GateMode,
  type GateModes,
} from '../../../../shared/schemas/gates';
import { WORKFLOWS, type Workflow } from '../../../../shared/engine/workflows';
import { type WorkflowName } from '../../../../shared/schemas/workflowName';
import type { ModelRole } from '../../../../shared/schemas/roles';
import type { PreflightProblem } from '../../../../shared/schemas/preflight';
import type { StartRunRequest } from '../../../../shared/contract/runRequests';
import type { Settings } from '../../../../shared/schemas/settings';

export interface RunFormValues {
  goal: string;
  workflow: WorkflowName;
  /** The model of every role ('' = none chosen). */
  model: string;
  roleModels: Partial<Record<ModelRole, string>>;
  gates: GateModes;
  /** Whole minutes; '' = no limit. */
  timeLimitMinutes: string;
  /** '' = the detected command. */
  testCommand: string;
  allowDirty: boolean;
}

export const ROLE_LABELS: Record<ModelRole, string> = {
  planner: 'Planner',
  coder: 'Coder',
  tester: 'Tester',
  supervisor: 'Supervisor',
  scout: 'Scouts',
  editor: 'Editor',
};

const SPEC_PATTERN = /^(llama:.+\.gguf|ollama:\S+|openai:\S+#\S+|replay:.+\.json)$/i;

/** Why a model spec cannot be used, or null when it has the right shape. */
export function specProblem(spec: string): string | null {
  if (spec.trim() === '') return null;
  return SPEC_PATTERN.test(spec.trim())
    ? null
    : 'Use llama:PATH.gguf, ollama:NAME, openai:URL#MODEL or replay:FILE.json';
}

/** The model roles the chosen workflow and gates will call (the same rule the core applies before starting). */
export function rolesFor(workflow: Workflow, gates: GateModes): ModelRole[] {
  const roles = new Set<ModelRole>([workflow.writer]);
  if (workflow.planning === 'planner' || workflow.defaults.limits.max_subplan_depth > 0) roles.add('planner');
  if (workflow.tester !== 'none') roles.add('tester');
  if (GATE_KINDS.some((kind) => gateUsesSupervisor(gates[kind]))) roles.add('supervisor');
  if (workflow.scouts) roles.add('scout');
  return [...roles].sort();
}

/** The workflow's gates with the user's defaults from settings laid over them. */
export function defaultGates(workflow: WorkflowName, settings: Settings | null): GateModes {
  return { ...WORKFLOWS[workflow].defaults.gates, ...(settings?.gates ?? {}) };
}

export function initialFormValues(settings: Settings | null): RunFormValues {
  const workflow = (
    settings && settings.defaultWorkflow in WORKFLOWS ? settings.defaultWorkflow : 'minimal'
  ) as WorkflowName;
  return {
    goal: '',
    workflow,
    model: settings?.defaultModel ?? '',
    roleModels: { ...(settings?.roleModels ?? {}) },
    gates: defaultGates(workflow, settings),
    timeLimitMinutes: settings?.timeLimitMinutes ? String(settings.timeLimitMinutes) : '',
    testCommand: '',
    allowDirty: false,
  };
}

/** Splits a command line like a shell would (quotes, backslashes), without running a shell. */
export function splitCommand(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: '"' | "'" | null = null;
  let inWord = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index] ?? '';
    if (quote) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && index + 1 < text.length) current += text[++index];
      else current += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && index + 1 < text.length) {
      current += text[++index];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (inWord) words.push(current);
  return words;
}

export type FormCheck =
  { ok: true; request: StartRunRequest } | { ok: false; problems: Partial<Record<string, string>> };

/** The `run/start` request for the form (following up on `followUpOf` when given), or what must be fixed first (by field id). */
export function buildStartRequest(repo: string, values: RunFormValues, followUpOf: string | null = null): FormCheck {
  const problems: Partial<Record<string, string>> = {};
  const goal = values.goal.trim();
  if (!goal) problems.goal = 'Type a goal.';
  const workflow = WORKFLOWS[values.workflow];
  const roles = rolesFor(workflow, values.gates);
  const roleModels: Partial<Record<ModelRole, string>> = {};
  for (const role of roles) {
    const spec = values.roleModels[role]?.trim();
    if (spec) {
      roleModels[role] = spec;
      const problem = specProblem(spec);
      if (problem) problems[`model-${role}`] = problem;
    }
  }
  const model = values.model.trim();
  if (model && specProblem(model)) problems.model = specProblem(model) ?? undefined;
  const missing = roles.filter((role) => !roleModels[role]);
  if (!model && missing.length > 0)
    problems.model = `Pick a model for every role, or one for ${missing.map((role) => ROLE_LABELS[role]).join(', ')}.`;
  let timeLimitMs: number | null = null;
  if (values.timeLimitMinutes.trim()) {
    const minutes = Number(values.timeLimitMinutes);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > 24 * 60)
      problems.timeLimit = 'Whole minutes between 1 and 1440, or empty for no limit.';
    else timeLimitMs = minutes * 60_000;
  }
  const testCommand = splitCommand(values.testCommand);
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const gates = Object.fromEntries(
    GATE_KINDS.map((kind): [GateKind, GateMode] => [kind, values.gates[kind]]),
  ) as GateModes;
  return {
    ok: true,
    request: {
      repo,
      goal,
      workflow: values.workflow,
      ...(model ? { model } : {}),
      ...(Object.keys(roleModels).length > 0 ? { roleModels } : {}),
      gates,
      timeLimitMs,
      ...(testCommand.length > 0 ? { testCommand } : {}),
      ...(values.allowDirty ? { allowDirty: true } : {}),
      ...(followUpOf ? { followUpOf } : {}),
    },
  };
}

/**
 * The core's start checks (PREFLIGHT_FAILED) as problems by form field id: a model problem goes to the
 * role's own picker when that role has its own spec, else to "Every role".
 */
export function formProblems(
  problems: readonly PreflightProblem[],
  values: RunFormValues,
): Partial<Record<string, string>> {
  const byField: Partial<Record<string, string>> = {};
  const add = (field: string, message: string) =>
    (byField[field] = byField[field] ? `${byField[field]} ${message}` : message);
  for (const problem of problems) {
    const message = `${capitalize(problem.message)}.`;
    if (problem.field === 'goal') add('goal', message);
    else if (problem.field === 'test_command') add('testCommand', message);
    else {
      const ownRoles = problem.roles.filter((role) => values.roleModels[role]?.trim());
      for (const role of ownRoles) add(`model-${role}`, message);
      if (ownRoles.length < problem.roles.length || problem.roles.length === 0) add('model', message);
    }
  }
  return byField;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The element to focus for a problem key (the field ids of the form). */
export function fieldIdOf(key: string): string {
  return key === 'timeLimit'
    ? 'time-limit'
    : key === 'model'
      ? 'model-all'
      : key === 'testCommand'
        ? 'test-command'
        : key;
}
