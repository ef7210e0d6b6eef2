import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { GATE_KINDS, GateModeSchema, type GateKind, type GateMode } from '../../../../shared/schemas/gates';
import type { RunConfig } from '../../../../shared/engine/runConfig';
import type { RunState } from '../../../../shared/engine/runState';
import { MODEL_ROLES, type ModelRole } from '../../../../shared/schemas/roles';
import { setAsideNotice } from '../../../../shared/schemas/settings';
import { sourceAppRoot } from '../../appRoot';
import { parseDuration } from '../../config/duration';
import { resolveRunConfig, splitCommand, type ConfigOverrides } from '../../config/resolveConfig';
import { fillDefaultModels } from '../../config/defaultModel';
import { defaultDataDir } from '../../dataDir';
import { createEngineEnv } from '../../engine/defaultDeps';
import { modelAssignments } from '../../engine/preflight';
import { stopRunNow } from '../../engine/hardStop';
import { workflowOf, resumeRun, startRun, type EngineEnv } from '../../engine/runner';
import { RunStore } from '../../engine/runStore';
import { killLiveTreesNow } from '../../basics/processTree';
import { terminalGateDecider } from '../gatePrompt';
import { parseCommandArgs, UsageError, wantsHelp, type CliIo, type Command, type ParsedOptions } from '../command';
import { ExitCode } from '../exitCodes';
import { repoRootArg } from '../repoArg';
import { ProgressPrinter } from '../progress';
import { runTotals, runTotalsJson, runTotalsLine } from '../runTotals';
import { givenGoal, maxRetriesAttempts, normalizeResumeArgs, resumeChoice } from './resumeChoice';

const usage = `Usage: lathe run --repo DIR (--goal TEXT | --goal-file F | --spec F | --goals FILE) [options]
       lathe run --repo DIR --resume [RUN_ID] [--goal TEXT | --spec F] [--time-limit 30m] [--yes]
       lathe run --repo DIR --follow-up RUN_ID (--goal TEXT | --goal-file F) [options]

Runs a goal against a git repository on a branch of its own (lathe/<run_id>), a commit per step.
  --workflow NAME         minimal | dev-agent | retry-loop | supervised | editor-scouts (default: minimal)
  --model SPEC            model for every role: llama:PATH.gguf, ollama:NAME, openai:URL#MODEL, replay:FILE.json,
                          oracle:PATCH.diff (answers as a perfect model would for the fix the patch makes)
                          (default: the models in lathe.config.yaml, else the default model in settings,
                          else the only usable GGUF in the model library; see \`lathe models\`)
  --role-model ROLE=SPEC  model for one role (planner, coder, tester, supervisor, scout, editor); repeatable
  --config FILE           extra configuration, over the repo's lathe.config.yaml
  --time-limit DURATION   stop gracefully (resumable) after e.g. 30m
  --gates MODE            off | auto | human | both for every gate, or KIND=MODE[,KIND=MODE] (plan, code, step, goal)
  --test-command CMD      the test command (default: detected, or policies.test_command)
  --allow-dirty           carry on with uncommitted changes (those files are never touched)
  --threads N             CPU threads for llama models (default: physical cores)
  --json                  print events as JSON lines and a final summary line
  --yes                   approve every human gate
  --resume [RUN_ID]       continue a stopped or crashed run from its last completed sub-step (no id: the
                          latest resumable run); a goal or spec given with it must be the run's own (exit 64)
  --no-resume             start a fresh run (seed 003), whatever runs could be resumed
  --spec FILE             the goal from a file (seed 003's spec.md; the same as --goal-file)
  --max-retries N         seed 003: 1 generation + N patches per task (sets the attempts per task to N + 1)
  --goals FILE            seed 000's task list: run each goal (YAML list or one per line) in turn
  --follow-up RUN_ID      a new run that continues RUN_ID ("also handle X", or a failed run with a hint): its
                          branch starts at that run's head (a merged run: the commit it was merged at), which
                          is its base for diff, undo and merge; its agents are told the earlier goal, how its
                          plan ended and its diff. An undone run, one still running or whose branch is gone is exit 64
Exit codes: 0 success or nothing to do, 1 goal not met within limits, 2 unrecoverable git/infra error, 64 usage error.`;

const options = {
  repo: { type: 'string' },
  goal: { type: 'string' },
  'goal-file': { type: 'string' },
  spec: { type: 'string' },
  'no-resume': { type: 'boolean' },
  'max-retries': { type: 'string' },
  goals: { type: 'string' },
  workflow: { type: 'string' },
  model: { type: 'string' },
  'role-model': { type: 'string', multiple: true },
  config: { type: 'string' },
  'time-limit': { type: 'string' },
  gates: { type: 'string' },
  'test-command': { type: 'string' },
  'allow-dirty': { type: 'boolean' },
  threads: { type: 'string' },
  json: { type: 'boolean' },
  yes: { type: 'boolean' },
  resume: { type: 'string' },
  'follow-up': { type: 'string' },
} as const;

export function parseGates(text: string): Partial<Record<GateKind, GateMode>> {
  const single = GateModeSchema.safeParse(text);
  if (single.success) return Object.fromEntries(GATE_KINDS.map((kind) => [kind, single.data]));
  const gates: Partial<Record<GateKind, GateMode>> = {};
  for (const part of text.split(',')) {
    const [kind, mode] = part.split('=').map((piece) => piece.trim());
    const parsedMode = GateModeSchema.safeParse(mode);
    if (!GATE_KINDS.includes(kind as GateKind) || !parsedMode.success)
      throw new UsageError(
        `--gates: '${part}' is not KIND=MODE (kinds: ${GATE_KINDS.join(', ')}; modes: off, auto, human, both)`,
      );
    gates[kind as GateKind] = parsedMode.data;
  }
  return gates;
}

export function parseRoleModels(entries: string[] | undefined): NonNullable<ConfigOverrides['roleModels']> {
  const roles: NonNullable<ConfigOverrides['roleModels']> = {};
  for (const entry of entries ?? []) {
    const at = entry.indexOf('=');
    const role = entry.slice(0, at) as ModelRole;
    if (at < 1 || !MODEL_ROLES.includes(role))
      throw new UsageError(`--role-model: '${entry}' is not ROLE=SPEC (roles: ${MODEL_ROLES.join(', ')})`);
    roles[role] = entry.slice(at + 1);
  }
  return roles;
}

export function readGoals(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const parsed: unknown = /\.(ya?ml)$/i.test(file) ? YAML.parse(text) : null;
  const list = Array.isArray(parsed)
    ? parsed
    : parsed && typeof parsed === 'object' && Array.isArray((parsed as { goals?: unknown }).goals)
      ? (parsed as { goals: unknown[] }).goals
      : null;
  const goals = list
    ? list.map(String)
    : text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line && !line.startsWith('#'));
  if (goals.length === 0) throw new UsageError(`--goals: no goals in ${file}`);
  return goals;
}

type RunValues = ParsedOptions<typeof options>['values'];

function checkGoalSources(values: RunValues): void {
  const goalSources = [values.goal, values['goal-file'], values.spec, values.goals].filter(
    (value) => value !== undefined,
  ).length;
  if ((values.resume === undefined && goalSources !== 1) || goalSources > 1)
    throw new UsageError('give exactly one of --goal, --goal-file, --spec or --goals (or --resume [RUN_ID])');
  if (values['follow-up'] !== undefined && (values.resume !== undefined || values.goals !== undefined))
    throw new UsageError(
      '--follow-up starts one new run: give it one goal (--goal or --goal-file), without --resume or --goals',
    );
}

function configOverrides(values: RunValues): ConfigOverrides {
  return {
    workflow: values.workflow,
    model: values.model,
    roleModels: parseRoleModels(values['role-model']),
    timeLimitMs: values['time-limit'] === undefined ? undefined : parseDuration(values['time-limit'], '--time-limit'),
    gates: values.gates === undefined ? undefined : parseGates(values.gates),
    testCommand: values['test-command'] === undefined ? undefined : splitCommand(values['test-command']),
    allowDirty: values['allow-dirty'],
    maxAttemptsPerTask: maxRetriesAttempts(values['max-retries']),
  };
}

function threadsArg(values: RunValues): number | undefined {
  const threads = values.threads === undefined ? undefined : Number(values.threads);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1))
    throw new UsageError('--threads must be a positive whole number');
  return threads;
}

interface RunInterrupts {
  signal: AbortSignal;
  /** The run this process drives now: a second Ctrl-C marks it stopped before the process exits. */
  follow: (runId: string) => void;
  release: () => void;
}

/** The first Ctrl-C (or SIGTERM) stops the run at its last completed sub-step; a second one quits at once. */
function stopOnInterrupt(io: CliIo, repoRoot: string, runId: string | null): RunInterrupts {
  const controller = new AbortController();
  let interrupts = 0;
  let current = runId;
  const onInterrupt = (signal: NodeJS.Signals) => {
    interrupts++;
    if (interrupts > 1) {
      const stopped = current
        ? stopRunNow(
            repoRoot,
            current,
            `stopped at once by a second ${signal}; resumable from its last completed sub-step`,
          )
        : null;
      io.err(
        stopped
          ? `quit at once: run ${stopped.run_id} is saved at its last completed sub-step; resume with: lathe run --repo ${repoRoot} --resume ${stopped.run_id}`
          : 'quit at once.',
      );
      killLiveTreesNow();
      process.exit(ExitCode.goalNotMet);
    }
    io.err(
      `\nstopping (${signal}): the operation under way is cut short and the run kept at its last completed sub-step, resumable (Ctrl-C again to quit at once)…`,
    );
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  return {
    signal: controller.signal,
    follow: (id) => {
      current = id;
    },
    release: () => {
      process.off('SIGINT', onInterrupt);
      process.off('SIGTERM', onInterrupt);
    },
  };
}

/** The run configuration, with a default model for every role that has none (each choice said aloud). */
async function runConfigWithModels(
  values: RunValues,
  repoRoot: string,
  overrides: ConfigOverrides,
  io: CliIo,
): Promise<RunConfig> {
  const resolved = resolveRunConfig(
    {
      defaultsFile: path.join(sourceAppRoot(), 'resources', 'defaults.yaml'),
      repoRoot,
      configFile: values.config && path.resolve(io.cwd, values.config),
    },
    overrides,
  );
  const defaults = await fillDefaultModels(resolved, modelAssignments(workflowOf(resolved), resolved).missing, {
    dataDir: defaultDataDir(io.env),
    env: io.env,
  });
  // On stderr with --json, whose stdout is JSON lines only.
  const say = values.json ? io.err : io.out;
  if (defaults.settingsSetAside) io.err(`warning: ${setAsideNotice(defaults.settingsSetAside)}`);
  for (const choice of defaults.choices)
    say(`model: ${choice.spec} for ${choice.roles.join(', ')} (${choice.source}; --model SPEC picks another)`);
  if (defaults.unresolved) io.err(`no default model: ${defaults.unresolved}`);
  return defaults.config;
}

function goalsOf(values: RunValues, cwd: string): string[] {
  return values.goals !== undefined ? readGoals(path.resolve(cwd, values.goals)) : [givenGoal(values, cwd) ?? ''];
}

/** Each goal in turn (`--goals`), until one is not met or the run is interrupted. */
async function runGoals(
  env: EngineEnv,
  request: { repoRoot: string; goals: string[]; config: RunConfig; followUpOf: string | undefined },
  json: boolean,
  io: CliIo,
): Promise<number> {
  const { repoRoot, goals, config, followUpOf } = request;
  let exit: number = ExitCode.success;
  for (const [index, goal] of goals.entries()) {
    if (goals.length > 1) io.out(`— goal ${index + 1}/${goals.length}: ${goal.split('\n')[0]}`);
    const state = await startRun(env, {
      repoRoot,
      goal,
      config,
      ...(followUpOf === undefined ? {} : { followUpOf }),
    });
    exit = finish(io, state, repoRoot, json);
    if (exit !== ExitCode.success || env.signal?.aborted) break;
  }
  return exit;
}

export const runCommand: Command = {
  name: 'run',
  summary: 'run a goal against a repository',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values } = parseCommandArgs(normalizeResumeArgs(args), options);
    const repoRoot = await repoRootArg(io.cwd, values.repo);
    checkGoalSources(values);
    // Seed 003's resume rules (a changed goal stops here, exit 64), before anything is set up.
    const resumption = await resumeChoice(repoRoot, values, io.cwd);
    const overrides = configOverrides(values);
    const threads = threadsArg(values);
    const interrupts = stopOnInterrupt(io, repoRoot, resumption.kind === 'resume' ? resumption.runId : null);
    const printer = new ProgressPrinter(io);
    const env = createEngineEnv({
      appRoot: sourceAppRoot(),
      dataDir: defaultDataDir(io.env),
      signal: interrupts.signal,
      threads,
      callbacks: {
        onEvent: (event) => {
          interrupts.follow(event.run_id);
          if (values.json) io.out(JSON.stringify(event));
          else printer.onEvent(event);
        },
        onTransient: (event) => values.json || printer.onTransient(event),
        decideGate: terminalGateDecider(io, values.yes === true),
      },
    });
    try {
      if (resumption.kind === 'resume') {
        printer.resumeFrom(RunStore.readState(repoRoot, resumption.runId));
        const state = await resumeRun(env, {
          repoRoot,
          runId: resumption.runId,
          goal: resumption.goal,
          timeLimitMs: overrides.timeLimitMs,
        });
        return finish(io, state, repoRoot, values.json === true);
      }
      const goals = goalsOf(values, io.cwd);
      const config = await runConfigWithModels(values, repoRoot, overrides, io);
      return await runGoals(
        env,
        { repoRoot, goals, config, followUpOf: values['follow-up'] },
        values.json === true,
        io,
      );
    } finally {
      interrupts.release();
    }
  },
};

function finish(io: CliIo, state: RunState, repoRoot: string, json: boolean): number {
  const status = state.result?.status ?? state.status;
  const exitCode = state.result?.exit_code ?? ExitCode.goalNotMet;
  if (json) {
    io.out(
      JSON.stringify({
        status,
        run_id: state.run_id,
        branch: state.branch,
        commits: state.commits,
        exit_code: exitCode,
        ...runTotalsJson(runTotals(state)),
      }),
    );
  } else {
    io.out(`  run ${state.run_id} · branch ${state.branch ?? '(none)'} · ${state.commits.length} commit(s)`);
    io.out(`  ${runTotalsLine(runTotals(state))}`);
    // A run that failed before its workspace existed (no commits yet…) still has its folder in the repo.
    io.out(`  report: ${path.join(repoRoot, '.lathe', 'runs', state.run_id, 'report.md')}`);
    // Interrupted, paused or out of time: the phase is kept, so the run continues where it stopped.
    if (state.phase !== 'finished') io.out(`  resume with: lathe run --repo ${repoRoot} --resume ${state.run_id}`);
  }
  return exitCode;
}
