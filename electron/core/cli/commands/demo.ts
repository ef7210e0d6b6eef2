import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import git from 'isomorphic-git';
import { isWorkflowName, WORKFLOW_NAMES } from '../../../../shared/schemas/workflowName';
import { sourceAppRoot } from '../../appRoot';
import { resolveRunConfig } from '../../config/resolveConfig';
import { defaultDataDir } from '../../dataDir';
import { createEngineEnv } from '../../engine/defaultDeps';
import { startRun } from '../../engine/runner';
import { nativeGitVersion, runNativeGit } from '../../git/nativeGit';
import { terminalGateDecider } from '../gatePrompt';
import { parseCommandArgs, UsageError, wantsHelp, type CliIo, type Command } from '../command';
import { ExitCode } from '../exitCodes';
import { ProgressPrinter } from '../progress';
import { runTotals, runTotalsLine } from '../runTotals';

const EXAMPLE = 'js-stats';

const usage = `Usage: lathe demo [--workflow NAME] [--model SPEC] [--dir DIR | --keep]

Copies the bundled example repository (resources/examples/${EXAMPLE}: a small JavaScript project with
one failing test) into a new git repository and runs its goal headless. Without --model the agents'
outputs come from a recorded REPLAY transcript (resources/replays/), clearly labelled as such; with
--model llama:PATH.gguf the same goal runs on a real local model.
  --workflow NAME   minimal (default), dev-agent, retry-loop, supervised or editor-scouts
  --model SPEC      a real model for every role instead of the replay
  --dir DIR         where to create the example repository, kept afterwards (default: a temp folder,
                    removed when the demo ends)
  --keep            keep the temp folder (its path is printed) to look at the branch and run log`;

/** A fresh copy of an example, committed as the repository's first commit. */
export async function prepareExampleRepo(appRoot: string, example: string, target: string): Promise<string> {
  fs.cpSync(path.join(appRoot, 'resources', 'examples', example), target, { recursive: true });
  await git.init({ fs, dir: target, defaultBranch: 'main' });
  await git.add({ fs, dir: target, filepath: '.' });
  const author = {
    name: 'Lathe Demo',
    email: 'demo@lathe.invalid',
    timestamp: Math.floor(Date.now() / 1000),
    timezoneOffset: 0,
  };
  await git.commit({ fs, dir: target, message: `Example repository ${example}`, author, committer: author });
  return target;
}

async function printLog(io: CliIo, repo: string, base: string, branch: string): Promise<void> {
  if (await nativeGitVersion()) {
    const log = await runNativeGit(repo, [
      'log',
      '--stat',
      '--format=%h %s%n  %(trailers:separator=%x20·%x20,unfold)',
      `${base}..${branch}`,
    ]);
    io.out(log.stdout.trimEnd());
    return;
  }
  for (const entry of await git.log({ fs, dir: repo, ref: branch })) {
    if (entry.oid === base) break;
    io.out(`${entry.oid.slice(0, 7)} ${entry.commit.message.trim()}`);
  }
}

interface DemoRun {
  appRoot: string;
  workflow: string;
  model: string;
  /** The --model the user gave (none: the bundled replay). */
  labelledModel: string | undefined;
  transcript: string;
  repoDir: string;
  /** The repository outlives the command: print where to look. */
  kept: boolean;
}

async function runDemo(io: CliIo, demo: DemoRun): Promise<number> {
  const { appRoot, workflow, model } = demo;
  const repo = await prepareExampleRepo(appRoot, EXAMPLE, demo.repoDir);
  const goal = fs.readFileSync(path.join(repo, 'lathe.goal.txt'), 'utf8').trim();
  io.out(
    demo.labelledModel
      ? `Lathe demo — model ${demo.labelledModel}`
      : `Lathe demo — REPLAY: the agents' outputs are a recorded transcript (${path.relative(appRoot, demo.transcript)}), not generated live.\nPass --model llama:PATH.gguf to run the same goal on a real local model.`,
  );
  io.out(
    `repository: ${repo}${demo.kept ? '' : ' (a temp folder, removed at the end; --keep keeps it)'}\ngoal: ${goal.replace(/\n/g, ' ')}\n`,
  );

  const config = resolveRunConfig(
    { defaultsFile: path.join(appRoot, 'resources', 'defaults.yaml'), repoRoot: repo },
    { workflow, model },
  );
  const printer = new ProgressPrinter(io);
  const env = createEngineEnv({
    appRoot,
    dataDir: defaultDataDir(io.env),
    callbacks: {
      onEvent: (event) => printer.onEvent(event),
      onTransient: (event) => printer.onTransient(event),
      decideGate: terminalGateDecider(io, true),
    },
  });
  const state = await startRun(env, { repoRoot: repo, goal, config });
  io.out('');
  if (state.workspace) {
    io.out(
      `run branch: ${state.workspace.branch} (${state.commits.length} commit(s) on top of ${state.workspace.baseCommit.slice(0, 7)})`,
    );
    io.out(runTotalsLine(runTotals(state)));
    await printLog(io, repo, state.workspace.baseCommit, state.workspace.branch);
    if (demo.kept) io.out(`\nreport: ${path.join(repo, '.lathe', 'runs', state.run_id, 'report.md')}`);
  }
  return state.result?.exit_code ?? ExitCode.goalNotMet;
}

export const demoCommand: Command = {
  name: 'demo',
  summary: 'run the bundled example goal headless (replay model unless --model)',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) return (io.out(usage), ExitCode.success);
    const { values } = parseCommandArgs(args, {
      workflow: { type: 'string' },
      model: { type: 'string' },
      dir: { type: 'string' },
      keep: { type: 'boolean' },
    });
    const workflow = values.workflow ?? 'minimal';
    if (!isWorkflowName(workflow))
      throw new UsageError(`unknown workflow '${workflow}' (${WORKFLOW_NAMES.join(', ')})`);
    if (values.dir && values.keep) throw new UsageError('--dir is always kept; --keep is for the temp folder');
    const appRoot = sourceAppRoot();
    const transcript = path.join(appRoot, 'resources', 'replays', `${EXAMPLE}.${workflow}.json`);
    if (!values.model && !fs.existsSync(transcript))
      throw new UsageError(`no replay transcript for ${workflow}; pass --model SPEC to run it on a real model`);
    const model = values.model ?? `replay:${transcript}`;

    const temp = values.dir ? null : fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-demo-'));
    const parent = temp ?? path.resolve(io.cwd, values.dir ?? '.');
    try {
      return await runDemo(io, {
        appRoot,
        workflow,
        model,
        labelledModel: values.model,
        transcript,
        repoDir: path.join(parent, EXAMPLE),
        kept: temp === null || values.keep === true,
      });
    } finally {
      // Each demo made a new temp folder that nobody removed; it goes unless the user asked to keep it.
      if (temp && !values.keep) fs.rmSync(temp, { recursive: true, force: true });
    }
  },
};
