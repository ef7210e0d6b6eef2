import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import type { GateKind, GateMode } from '../../../shared/schemas/gates';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { isWorkflowName, WORKFLOW_NAMES } from '../../../shared/schemas/workflowName';
import { RunConfigSchema, type RunConfig } from '../../../shared/engine/runConfig';
import { LatheError } from '../../../shared/errors';
import { MODEL_ROLES, type ModelRole } from '../../../shared/schemas/roles';
import { ConfigFileSchema, type ConfigFile } from './configFile';
import { parseDuration } from './duration';

/** What the CLI flags (or the window's start form) set on top of the files. */
export interface ConfigOverrides {
  workflow?: string;
  /** One model for every role. */
  model?: string;
  roleModels?: Partial<Record<ModelRole, string>>;
  timeLimitMs?: number | null;
  gates?: Partial<Record<GateKind, GateMode>>;
  testCommand?: string[];
  editFormat?: RunConfig['edit_format'];
  allowDirty?: boolean;
  branchPrefix?: string;
  maxAttemptsPerTask?: number;
  shellAllowlist?: string[];
}

export interface ConfigSources {
  /** `resources/defaults.yaml`. */
  defaultsFile?: string;
  repoRoot: string;
  /** `--config FILE`. */
  configFile?: string;
}

export function readConfigFile(file: string): ConfigFile {
  let raw: unknown;
  try {
    raw = YAML.parse(fs.readFileSync(file, 'utf8')) ?? {};
  } catch (error) {
    throw new LatheError(
      'BAD_CONFIG',
      `${file}: not valid YAML: ${error instanceof Error ? error.message : String(error)}`,
      { file },
    );
  }
  const parsed = ConfigFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue && 'keys' in issue && Array.isArray(issue.keys) ? `.${issue.keys.join(', ')}` : '';
    const where = [...(issue?.path ?? []).map(String)].join('.') + keys;
    throw new LatheError('BAD_CONFIG', `${file}: ${where || '(top level)'}: ${issue?.message ?? 'invalid'}`, {
      file,
      key: where,
    });
  }
  return parsed.data;
}

// `&&`, pipes, redirections, globs, `$VAR` and leading `NAME=value` only mean something to a shell.
const SHELL_SYNTAX = /&&|\|\||[|;<>`$*?]|^\s*[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * Splits `pytest --maxfail=1` into argv (quotes group words). A command that needs a shell — real
 * projects' test commands often do (`npm run build && mocha test/*.mjs`) — runs as `sh -c COMMAND`
 * instead of being split into words that would reach the program as literal `&&` and `*`.
 */
export function splitCommand(command: string | string[]): string[] {
  if (Array.isArray(command)) return command;
  if (SHELL_SYNTAX.test(command.replace(/'[^']*'|"[^"]*"/g, ''))) return ['sh', '-c', command.trim()];
  return [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');
}

/** Seed 001 writes `llama-cpp:`; Lathe's spec is `llama:`. */
function normalizeSpec(spec: string): string {
  return spec.startsWith('llama-cpp:') ? `llama:${spec.slice('llama-cpp:'.length)}` : spec;
}

function setModel(
  config: RunConfig,
  role: ModelRole,
  entry:
    | string
    | { model: string; context_size?: number; temperature?: number; max_tokens?: number; prompt_lookup?: boolean },
): void {
  config.models[role] =
    typeof entry === 'string' ? { model: normalizeSpec(entry) } : { ...entry, model: normalizeSpec(entry.model) };
}

/**
 * `policies.sandbox.read_paths` as absolute paths (`~/` is the user's home). A repository's own
 * lathe.config.yaml may not set it: its tests would widen their own sandbox to `~/.ssh`.
 */
function sandboxReadPaths(paths: string[], source: { file: string; fromRepository: boolean }): string[] {
  if (source.fromRepository) {
    throw new LatheError(
      'BAD_CONFIG',
      `${source.file}: policies.sandbox.read_paths: a repository cannot widen the sandbox its own tests run in; set it in your own config (--config FILE) instead`,
      { file: source.file, key: 'policies.sandbox.read_paths' },
    );
  }
  return paths.map((entry) => {
    const expanded = entry === '~' || entry.startsWith('~/') ? path.join(os.homedir(), entry.slice(1)) : entry;
    if (!path.isAbsolute(expanded))
      throw new LatheError(
        'BAD_CONFIG',
        `${source.file}: policies.sandbox.read_paths: ${entry} is not an absolute path (or ~/…)`,
        { file: source.file, key: 'policies.sandbox.read_paths' },
      );
    return path.resolve(expanded);
  });
}

function applyFile(config: RunConfig, file: ConfigFile, source: { file: string; fromRepository: boolean }): void {
  const agents = file.agents ?? {};
  if (agents.default) for (const role of MODEL_ROLES) setModel(config, role, agents.default);
  for (const role of MODEL_ROLES) {
    const entry = agents[role];
    if (entry) setModel(config, role, entry);
  }
  if (file.model?.dev_agent) {
    setModel(config, 'coder', file.model.dev_agent);
    setModel(config, 'editor', file.model.dev_agent);
  }
  if (file.model?.supervisor) setModel(config, 'supervisor', file.model.supervisor);
  const p = file.policies ?? {};
  if (p.edit_format) config.edit_format = p.edit_format;
  if (p.artifacts_only !== undefined) config.artifacts_only = p.artifacts_only;
  if (p.tests_read_only !== undefined) config.tests_read_only = p.tests_read_only;
  if (p.tests !== undefined) config.tests_policy = p.tests;
  const testCommand = p.test_command ?? file.test_command;
  if (testCommand) config.test_command = splitCommand(testCommand);
  if (p.build_command) config.build_command = splitCommand(p.build_command);
  if (p.test_timeout !== undefined)
    config.limits.test_timeout_ms = parseDuration(String(p.test_timeout), 'policies.test_timeout');
  if (p.extra_verification) {
    config.extra_verification = p.extra_verification.map((tool, index) => ({
      name: tool.name,
      argv: splitCommand(tool.argv),
      required: tool.required ?? true,
      timeout_ms:
        tool.timeout === undefined
          ? null
          : parseDuration(String(tool.timeout), `policies.extra_verification.${index}.timeout`),
    }));
  }
  if (p.time_limit !== undefined) config.time_limit_ms = parseDuration(String(p.time_limit), 'policies.time_limit');
  for (const key of [
    'max_attempts_per_task',
    'max_plan_attempts',
    'max_fix_cycles',
    'replan_after_failures',
    'hard_stop_verify_loops',
    'max_subplan_depth',
    'max_failed_steps',
    'agent_retries',
  ] as const) {
    const value = p[key];
    if (value !== undefined) config.limits[key] = value;
  }
  if (file.max_iterations !== undefined) config.limits.max_attempts_per_task = file.max_iterations;
  if (file.max_retries !== undefined) config.limits.max_attempts_per_task = file.max_retries + 1;
  if (p.gates) config.gates = { ...config.gates, ...p.gates };
  if (p.thresholds) config.thresholds = { ...config.thresholds, ...p.thresholds };
  if (p.allowlist) config.shell_allowlist = p.allowlist;
  if (p.allow_dirty !== undefined) config.allow_dirty = p.allow_dirty;
  if (p.sandbox?.read_paths) config.sandbox.read_paths = sandboxReadPaths(p.sandbox.read_paths, source);
  // Naming a remote asks for the push; `remote: null` turns it off.
  if (file.git?.remote !== undefined)
    Object.assign(config.push, { remote: file.git.remote, enabled: file.git.remote !== null });
  if (file.git?.push !== undefined) config.push.enabled = file.git.push;
  if (file.git?.branch_prefix) config.branch_prefix = file.git.branch_prefix;
  const writePr = file.git?.write_pr_description ?? file.git?.auto_pr;
  if (writePr !== undefined) config.push.write_pr_description = writePr;
  if (file.kb_dir) config.kb_dir = file.kb_dir;
  if (file.models?.allow_hosts)
    config.model_access.allow_hosts = file.models.allow_hosts.map((host) => host.trim().toLowerCase());
  if (file.models?.token_env) config.model_access.token_env = file.models.token_env;
  const w = file.workspace ?? {};
  if (w.worktree_root !== undefined) config.workspace.worktree_root = w.worktree_root;
  if (w.setup !== undefined) config.workspace.setup_command = w.setup === null ? null : splitCommand(w.setup);
  if (w.setup_timeout !== undefined)
    config.workspace.setup_timeout_ms = parseDuration(String(w.setup_timeout), 'workspace.setup_timeout');
  if (w.dependency_folders) config.workspace.dependency_folders = w.dependency_folders;
}

/** A model named on the command line: the role's window and answer budget from the config files still apply. */
function overrideModel(config: RunConfig, role: ModelRole, spec: string): void {
  const { context_size, max_tokens } = config.models[role] ?? {};
  setModel(config, role, {
    model: spec,
    ...(context_size === undefined ? {} : { context_size }),
    ...(max_tokens === undefined ? {} : { max_tokens }),
  });
}

function applyOverrides(config: RunConfig, overrides: ConfigOverrides): void {
  if (overrides.model) for (const role of MODEL_ROLES) overrideModel(config, role, overrides.model);
  for (const [role, spec] of Object.entries(overrides.roleModels ?? {}) as [ModelRole, string][])
    overrideModel(config, role, spec);
  if (overrides.timeLimitMs !== undefined) config.time_limit_ms = overrides.timeLimitMs;
  if (overrides.gates) config.gates = { ...config.gates, ...overrides.gates };
  if (overrides.testCommand) config.test_command = overrides.testCommand;
  if (overrides.editFormat) config.edit_format = overrides.editFormat;
  if (overrides.allowDirty !== undefined) config.allow_dirty = overrides.allowDirty;
  if (overrides.branchPrefix) config.branch_prefix = overrides.branchPrefix;
  if (overrides.maxAttemptsPerTask) config.limits.max_attempts_per_task = overrides.maxAttemptsPerTask;
  if (overrides.shellAllowlist) config.shell_allowlist = overrides.shellAllowlist;
}

/** Workflow defaults ← resources/defaults.yaml ← <repo>/lathe.config.yaml ← --config FILE ← flags. */
export function resolveRunConfig(sources: ConfigSources, overrides: ConfigOverrides = {}): RunConfig {
  const files: { file: string; fromRepository: boolean; config: ConfigFile }[] = [];
  if (sources.defaultsFile && fs.existsSync(sources.defaultsFile))
    files.push({ file: sources.defaultsFile, fromRepository: false, config: readConfigFile(sources.defaultsFile) });
  const repoFile = path.join(sources.repoRoot, 'lathe.config.yaml');
  if (fs.existsSync(repoFile)) files.push({ file: repoFile, fromRepository: true, config: readConfigFile(repoFile) });
  if (sources.configFile) {
    if (!fs.existsSync(sources.configFile))
      throw new LatheError('BAD_CONFIG', `config file not found: ${sources.configFile}`, { file: sources.configFile });
    files.push({ file: sources.configFile, fromRepository: false, config: readConfigFile(sources.configFile) });
  }
  const workflow =
    overrides.workflow ?? [...files].reverse().find((entry) => entry.config.workflow)?.config.workflow ?? 'minimal';
  if (!isWorkflowName(workflow))
    throw new LatheError(
      'UNKNOWN_WORKFLOW',
      `unknown workflow '${workflow}'; choose one of: ${WORKFLOW_NAMES.join(', ')}`,
      { key: 'workflow' },
    );
  const config = structuredClone(configFromWorkflow(WORKFLOWS[workflow]));
  for (const entry of files) applyFile(config, entry.config, entry);
  applyOverrides(config, overrides);
  const checked = RunConfigSchema.safeParse(config);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new LatheError(
      'BAD_CONFIG',
      `invalid configuration: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
      { key: issue?.path.join('.') ?? '' },
    );
  }
  return checked.data;
}
