import path from 'node:path';
import { setAsideNotice } from '../../../../shared/schemas/settings';
import { sourceAppRoot } from '../../appRoot';
import { resolveRunConfig } from '../../config/resolveConfig';
import { defaultDataDir } from '../../dataDir';
import { chosenModels, defaultProbes, formatDoctorReport, runDoctor, type DoctorProbes } from '../../doctor/index';
import { resolveRepoRoot } from '../../git/repoStatus';
import { defaultModelFolders } from '../../llm/index';
import { SettingsStore } from '../../settings/settingsStore';
import { parseCommandArgs, UsageError, wantsHelp, type CliIo, type Command } from '../command';
import { ExitCode } from '../exitCodes';
import { isLatheError } from '../../../../shared/errors';

const usage = `Usage: lathe doctor [--repo DIR] [--model SPEC]... [--dir D]... [--threads N] [--json] [--verbose]

Checks what Lathe needs on this machine and explains how to fix what is missing: the llama.cpp binary
and GPU backend, threads vs physical cores, free memory vs the chosen models, the model folders, git,
bubblewrap (the Verifier's isolation level), the repository's test runner, the storage the Verifier's
artifacts take, and the Electron binary for npm start. Nothing is downloaded or changed.
  --repo DIR      the repository whose test runner to check (default: the current folder, if it is one)
  --model SPEC    a model you plan to use; repeatable (default: the models in your settings and in the
                  repository's lathe.config.yaml)
  --dir D         scan this model folder instead of the defaults; repeatable
  --threads N     the thread count you plan to use (default: your settings, else the physical cores)
  --context N     context size per model for the memory estimate (default: 4096)
  --json          print the report as JSON
  --verbose       explain every check, not only warnings and failures
Exit codes: 0 nothing Lathe needs is missing (warnings allowed), 1 something needed is missing, 64 usage error.`;

const options = {
  repo: { type: 'string' },
  model: { type: 'string', multiple: true },
  dir: { type: 'string', multiple: true },
  threads: { type: 'string' },
  context: { type: 'string' },
  json: { type: 'boolean' },
  verbose: { type: 'boolean' },
} as const;

const DEFAULT_CONTEXT = 4096;

function positiveInteger(value: string | undefined, flag: string): number | null {
  if (value === undefined) return null;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new UsageError(`${flag} must be a positive whole number`);
  return number;
}

async function repoToCheck(io: CliIo, requested: string | undefined): Promise<string | null> {
  if (requested !== undefined) {
    return resolveRepoRoot(path.resolve(io.cwd, requested)).catch((error: unknown) => {
      throw new UsageError(`--repo: ${error instanceof Error ? error.message : String(error)}`);
    });
  }
  // Run outside a repository, the doctor checks the machine alone.
  return resolveRepoRoot(io.cwd).catch((error: unknown) => {
    if (isLatheError(error, 'NOT_A_REPO')) return null;
    throw error;
  });
}

/** The models to check: the flags, or else what the settings and the repository's config choose. */
function modelSpecs(
  io: CliIo,
  flags: string[] | undefined,
  settings: ReturnType<SettingsStore['read']>,
  repo: string | null,
  appRoot: string,
): { spec: string; source: string }[] {
  if (flags && flags.length > 0) return flags.map((spec) => ({ spec, source: '--model' }));
  const fromSettings = [settings.defaultModel, ...Object.values(settings.roleModels)]
    .filter((spec): spec is string => typeof spec === 'string')
    .map((spec) => ({ spec, source: 'settings' }));
  if (!repo) return fromSettings;
  const config = resolveRunConfig({ defaultsFile: path.join(appRoot, 'resources', 'defaults.yaml'), repoRoot: repo });
  const fromRepo = Object.values(config.models)
    .filter((model) => model !== undefined)
    .map((model) => ({ spec: model.model, source: 'lathe.config.yaml' }));
  return [...fromRepo, ...fromSettings];
}

/** The command over any probes (tests inject a machine that lacks things). */
export function doctorCommandWith(makeProbes: (appRoot: string) => DoctorProbes): Command {
  return {
    name: 'doctor',
    summary: 'check this machine for what Lathe needs (llama.cpp, memory, models, git, sandbox, tests)',
    usage,
    async run(args, io) {
      if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
      const { values } = parseCommandArgs(args, options);
      const appRoot = sourceAppRoot();
      const threadsFlag = positiveInteger(values.threads, '--threads');
      const contextSize = positiveInteger(values.context, '--context') ?? DEFAULT_CONTEXT;
      const repo = await repoToCheck(io, values.repo);
      const store = new SettingsStore(defaultDataDir(io.env));
      const settings = store.read();
      // On stderr: with --json, stdout is the report alone.
      if (store.setAside) io.err(`warning: ${setAsideNotice(store.setAside)}`);
      const modelFolders =
        values.dir && values.dir.length > 0
          ? values.dir.map((dir) => path.resolve(io.cwd, dir))
          : defaultModelFolders({ env: io.env, settingsFolders: settings.modelFolders });
      const input = {
        models: chosenModels(modelSpecs(io, values.model, settings, repo, appRoot), io.cwd),
        modelFolders,
        threads: threadsFlag ?? settings.threads,
        repo,
        contextSize,
        artifactRoot: path.join(defaultDataDir(io.env), 'artifacts'),
      };
      const report = await runDoctor(input, makeProbes(appRoot));
      if (values.json) io.out(JSON.stringify(report, null, 2));
      else for (const line of formatDoctorReport(report, { verbose: values.verbose === true })) io.out(line);
      return report.ok ? ExitCode.success : ExitCode.goalNotMet;
    },
  };
}

export const doctorCommand: Command = doctorCommandWith(defaultProbes);
