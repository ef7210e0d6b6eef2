import fs from 'node:fs';
import type { Workflow } from '../../../shared/engine/workflows';
import { rolesUsed } from '../../../shared/engine/rolesUsed';
import type { ModelRole } from '../../../shared/schemas/roles';
import type { RunConfig } from '../../../shared/engine/runConfig';
import { isLatheError, LatheError } from '../../../shared/errors';
import {
  PREFLIGHT_FAILED,
  type PreflightErrorData,
  type PreflightProblem,
  type PreflightProblemCode,
} from '../../../shared/schemas/preflight';
import { roleBudget } from '../context/roleBudget';
import { inspectGguf } from '../llm/library/inspectGguf';
import { estimateTokens } from '../llm/results';
import { parseModelSpec, type ModelSpec } from '../llm/modelSpec';
import { loadGoldPatch } from '../llm/oracle/goldPatch';
import { loadReplayFile } from '../llm/providers/replayFile';
import type { EngineDeps } from './engineDeps';

export interface PreflightOptions {
  detectTestCommand: EngineDeps['detectTestCommand'];
  /** Where relative `llama:`/`replay:` paths resolve: the model router's own default, the process cwd. */
  cwd?: string;
  /** Hosts besides loopback that network specs may name (the router gets the same list). */
  allowedHosts?: readonly string[];
}

/** A problem raised as the error every entry point reports: a usage error, nothing created. */
export class PreflightError extends LatheError {
  constructor(readonly problems: PreflightProblem[]) {
    super(PREFLIGHT_FAILED, `cannot start the run: ${problems.map((problem) => problem.message).join('; ')}`, {
      problems,
    } satisfies PreflightErrorData);
  }
}

type LoadCheck = { code: PreflightProblemCode; message: string } | null;

/** One spec's roles, as the user wrote it once (`--model`) or per role. */
export interface ModelAssignment {
  spec: string;
  roles: ModelRole[];
}

/**
 * Can each spec be loaded? Parsed (host allowed), then per kind: a GGUF's header is read (never its
 * weights), a replay file or an oracle's gold patch is parsed. Kinds without anything to read locally pass.
 */
async function loadCheck(spec: ModelSpec): Promise<LoadCheck> {
  switch (spec.kind) {
    case 'llama':
      return checkGguf(spec.modelPath);
    case 'replay':
      return checkReplay(spec.filePath);
    case 'oracle': {
      const patch = await loadGoldPatch(spec.patchPath);
      return patch.ok ? null : { code: 'BAD_ORACLE_PATCH', message: patch.message };
    }
    case 'openai':
      // A server is not contacted before the run: it may be started later, and the host was checked.
      return null;
    default:
      // A kind added later passes until it gets a case of its own here.
      return null;
  }
}

async function checkGguf(file: string): Promise<LoadCheck> {
  if (!fs.existsSync(file)) return { code: 'MODEL_NOT_FOUND', message: `no model file at ${file}` };
  // Architecture support is asked of llama.cpp when the model loads; the header alone is read here.
  const entry = await inspectGguf(file, { isArchitectureSupported: () => null });
  return entry.status === 'ok'
    ? null
    : { code: 'MODEL_REJECTED', message: `${file} cannot be used: ${entry.reason ?? 'not a usable GGUF file'}` };
}

async function checkReplay(file: string): Promise<LoadCheck> {
  try {
    await loadReplayFile(file);
    return null;
  } catch (error) {
    return { code: 'BAD_REPLAY_FILE', message: error instanceof Error ? error.message : String(error) };
  }
}

/** Every spec must parse, name an allowed host and pass its kind's load check. */
export async function checkModelAssignments(
  assignments: readonly ModelAssignment[],
  options: Pick<PreflightOptions, 'cwd' | 'allowedHosts'> = {},
): Promise<PreflightProblem[]> {
  const problems: PreflightProblem[] = [];
  for (const { spec, roles } of assignments) {
    const parsed = parseModelSpec(spec, { cwd: options.cwd, allowedHosts: options.allowedHosts });
    const check = parsed.ok ? await loadCheck(parsed.value) : { code: parsed.problem, message: parsed.message };
    if (check)
      problems.push({
        code: check.code,
        field: 'model',
        roles: [...roles],
        spec,
        message: `${check.message} (model of ${roles.join(', ')})`,
      });
  }
  return problems;
}

/** The roles the run calls, grouped by the spec they use, and the roles without one. */
export function modelAssignments(
  workflow: Workflow,
  config: RunConfig,
): { assigned: ModelAssignment[]; missing: ModelRole[] } {
  const bySpec = new Map<string, ModelRole[]>();
  const missing: ModelRole[] = [];
  for (const role of rolesUsed(workflow, config)) {
    const spec = config.models[role]?.model;
    if (!spec) missing.push(role);
    else bySpec.set(spec, [...(bySpec.get(spec) ?? []), role]);
  }
  return { assigned: [...bySpec].map(([spec, roles]) => ({ spec, roles })), missing };
}

/**
 * Everything a run needs that can be checked before anything is created: a goal, a usable model for
 * each role it calls, and a test command. Returns every problem at once (empty when it may start).
 */
export async function checkRunInputs(
  request: { repoRoot: string; goal: string; config: RunConfig },
  workflow: Workflow,
  options: PreflightOptions,
): Promise<PreflightProblem[]> {
  const problems: PreflightProblem[] = [];
  if (request.goal.trim() === '')
    problems.push({
      code: 'BLANK_GOAL',
      field: 'goal',
      roles: [],
      spec: null,
      message: 'the goal is blank: say what should change',
    });
  problems.push(...checkGoalSize(request.goal, workflow, request.config));
  const { assigned, missing } = modelAssignments(workflow, request.config);
  if (missing.length > 0) {
    problems.push({
      code: 'NO_MODEL',
      field: 'model',
      roles: missing,
      spec: null,
      message: `no model for ${missing.join(', ')}: pass --model SPEC (see \`lathe models\`) or --role-model ROLE=SPEC, or pick one in the window`,
    });
  }
  problems.push(...(await checkModelAssignments(assigned, options)));
  if (!request.config.test_command) problems.push(...(await checkTestCommand(request.repoRoot, options)));
  return problems;
}

/**
 * Every role's prompt carries the whole goal, so a goal that does not fit the smallest window of the
 * roles the run calls (beside that role's answer) would only fail mid-run, on a branch already made.
 * Windows are the ones the calls get (`roleBudget`); tokens are the estimate the prompt builder uses.
 */
export function checkGoalSize(goal: string, workflow: Workflow, config: RunConfig): PreflightProblem[] {
  const tokens = estimateTokens(goal);
  const rooms = rolesUsed(workflow, config).map((role) => ({ role, ...roleBudget(config, role) }));
  const smallest = rooms.sort((a, b) => a.contextSize - a.answerReserve - (b.contextSize - b.answerReserve))[0];
  if (!smallest || tokens <= smallest.contextSize - smallest.answerReserve) return [];
  const { role, contextSize, answerReserve } = smallest;
  const message = `the goal is ${tokens} tokens; the smallest role window is ${contextSize} tokens (the ${role}'s, ${answerReserve} of them kept for its answer): shorten the goal, or give the ${role} a model with a larger context_size`;
  return [{ code: 'GOAL_TOO_LONG', field: 'goal', roles: [role], spec: config.models[role]?.model ?? null, message }];
}

async function checkTestCommand(repoRoot: string, options: PreflightOptions): Promise<PreflightProblem[]> {
  let detected;
  try {
    detected = await options.detectTestCommand(repoRoot);
  } catch (error) {
    if (!isLatheError(error, 'FILE_UNREADABLE')) throw error;
    const message = `cannot tell the test command: ${error.message}; make it readable, or set policies.test_command in lathe.config.yaml, pass --test-command, or type one in the window`;
    return [{ code: 'TEST_MANIFEST_UNREADABLE', field: 'test_command', roles: [], spec: null, message }];
  }
  if (!detected) {
    return [
      {
        code: 'NO_TEST_COMMAND',
        field: 'test_command',
        roles: [],
        spec: null,
        message: `no test command: none is configured and none was found in ${repoRoot} (package.json scripts.test, pytest, go.mod, Cargo.toml, a Makefile test target); set policies.test_command in lathe.config.yaml, pass --test-command, or type one in the window`,
      },
    ];
  }
  return [];
}

/** Throws PREFLIGHT_FAILED listing every problem, before any branch, worktree or run folder exists. */
export async function preflightRun(
  request: { repoRoot: string; goal: string; config: RunConfig },
  workflow: Workflow,
  options: PreflightOptions,
): Promise<void> {
  const problems = await checkRunInputs(request, workflow, options);
  if (problems.length > 0) throw new PreflightError(problems);
}
