import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunStateSchema } from '../../../shared/engine/runState';
import { APP_ROOT, makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { writeTinyModel } from '../../../test-support/gguf';
import { spawnLathe } from '../../../test-support/runCli';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createEngineEnv } from '../engine/defaultDeps';
import { startRun } from '../engine/runner';
import { readLog } from '../engine/runStore';
import { createGitFacade } from '../workspace/index';
import { mergeRecordedRun } from '../engine/closeRun';
import type { CliIo } from './command';
import { runCli } from './main';

const REPLAY_FILE = path.join(REPLAYS, 'js-stats.minimal.json');
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

function tempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function exampleRepo(): TempRepo {
  const repo = makeExampleRepo('js-stats');
  cleanup.push(() => repo.remove());
  return repo;
}

function capture(home: string, cwd = home): { io: CliIo; out: string[]; err: string[]; text: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (line) => out.push(line), err: (line) => err.push(line), env: { LATHE_HOME: home }, cwd },
    out,
    err,
    text: () => [...out, ...err].join('\n'),
  };
}

/** A finished replay run on the example, made in this process. */
async function finishedRun(repo: TempRepo, home: string) {
  const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: 'minimal', model: `replay:${REPLAY_FILE}` });
  return startRun(createEngineEnv({ appRoot: APP_ROOT, dataDir: home, retryBackoffMs: 1 }), {
    repoRoot: repo.dir,
    goal: 'fix median',
    config,
  });
}

function withHome<T>(home: string, body: () => Promise<T>): Promise<T> {
  const previous = process.env.HOME;
  process.env.HOME = home;
  return body().finally(() => (previous === undefined ? delete process.env.HOME : (process.env.HOME = previous)));
}

describe('llama:~/… and replay:~/… are the home folder (the docs use them everywhere)', () => {
  it('in lathe.config.yaml: the run finds its model under ~', async () => {
    const repo = exampleRepo();
    const home = tempDir('lathe-fake-home-');
    fs.mkdirSync(path.join(home, 'replays'));
    fs.copyFileSync(REPLAY_FILE, path.join(home, 'replays', 'stats.json'));
    repo.write('lathe.config.yaml', 'agents:\n  default: replay:~/replays/stats.json\n');
    repo.commitAll('lathe config');
    const { io, text } = capture(tempDir('lathe-data-'));
    expect(await withHome(home, () => runCli(['run', '--repo', repo.dir, '--goal', 'fix median'], io))).toBe(0);
    expect(text()).toMatch(/✔ complete \(exit 0\)/);
  });

  it('in lathe eval --model and --role-model', async () => {
    const home = tempDir('lathe-fake-home-');
    const { modelPath } = writeTinyModel(path.join(home, 'models'));
    const { io, err } = capture(tempDir('lathe-data-'));
    expect(
      await withHome(home, () =>
        runCli(
          [
            'eval',
            '--tasks',
            'py-roman',
            '--model',
            'llama:~/models/tiny-llama.gguf',
            '--role-model',
            'coder=replay:~/none.json',
          ],
          io,
        ),
      ),
    ).toBe(64);
    // The GGUF under ~ passed the model check; the replay file was looked for under ~, not in ./~.
    expect(err.join('\n')).toContain(`cannot read replay file ${path.join(home, 'none.json')} (ENOENT)`);
    expect(err.join('\n')).not.toContain(modelPath);
  });
});

describe('lathe runs | head', () => {
  it('stops writing quietly when the reader has gone: no EPIPE stack trace, exit 0', async () => {
    const repo = exampleRepo();
    const child = spawnLathe(['runs', '--repo', repo.dir], { env: { LATHE_HOME: tempDir('lathe-data-') } });
    // The reader closes before the command writes its first line.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at /);
    expect(code).toBe(0);
  });
});

describe('undo and merge are recorded in the run itself', () => {
  it('lathe runs shows an undone run as undone with no branch; a second undo changes nothing; --resume refuses (64)', async () => {
    const repo = exampleRepo();
    const home = tempDir('lathe-data-');
    const state = await finishedRun(repo, home);
    const undo = capture(home);
    expect(await runCli(['undo', '--repo', repo.dir, state.run_id], undo.io)).toBe(0);
    expect(undo.out.join('\n')).toMatch(/branch lathe\/\S+ removed/);

    const listed = capture(home);
    expect(await runCli(['runs', '--repo', repo.dir, '--json'], listed.io)).toBe(0);
    const [summary] = JSON.parse(listed.out.join('\n')) as {
      status: string;
      branch: string | null;
      closed: { action: string } | null;
    }[];
    expect(summary).toMatchObject({ status: 'complete', branch: null, closed: { action: 'undone' } });
    const table = capture(home);
    await runCli(['runs', '--repo', repo.dir], table.io);
    expect(table.out[1]).toMatch(new RegExp(`^${state.run_id}\\s+undone\\s+minimal\\s+2\\s+-\\s+fix median$`));

    const again = capture(home);
    expect(await runCli(['undo', '--repo', repo.dir, state.run_id], again.io)).toBe(0);
    expect(again.out.join('\n')).toMatch(/was already undone at .*; nothing to do/);
    expect(again.out.join('\n')).not.toContain('removed');

    const resumed = capture(home);
    expect(await runCli(['run', '--repo', repo.dir, '--resume', state.run_id], resumed.io)).toBe(64);
    expect(resumed.err.join('\n')).toMatch(/was undone at .*start a new run instead \[RUN_UNDONE\]/);
    expect(resumed.out).toEqual([]);

    const runDir = path.join(repo.dir, '.lathe', 'runs', state.run_id);
    const undone = readLog(path.join(runDir, 'log.jsonl')).filter((event) => event.type === 'run_undone');
    expect(undone).toHaveLength(1);
    expect(undone[0]?.data).toMatchObject({ branch: state.branch, previous_status: 'complete', was_merged: false });
    const saved = RunStateSchema.parse(JSON.parse(fs.readFileSync(path.join(runDir, 'state.json'), 'utf8')));
    expect(saved.closed).toEqual({
      action: 'undone',
      at: undone[0]?.ts,
      seq: undone[0]?.seq,
      into: null,
      commit: state.workspace?.baseCommit,
    });
    expect(saved.log_seq).toBe(undone[0]?.seq);
  });

  it('a merge is listed as merged into its branch, and an undone run cannot be merged', async () => {
    const repo = exampleRepo();
    const home = tempDir('lathe-data-');
    const state = await finishedRun(repo, home);
    const { merged } = await mergeRecordedRun({ git: createGitFacade() }, repo.dir, state.run_id);
    expect(repo.git('rev-parse', 'main')).toBe(merged);
    const listed = capture(home);
    await runCli(['runs', '--repo', repo.dir, '--json'], listed.io);
    expect(JSON.parse(listed.out.join('\n'))).toMatchObject([
      { status: 'complete', branch: state.branch, closed: { action: 'merged', into: 'main', commit: merged } },
    ]);
    // Undoing a merged run takes main back to the base (restore.ts): the record says undone.
    await runCli(['undo', '--repo', repo.dir, state.run_id], capture(home).io);
    expect(repo.git('rev-parse', 'main')).toBe(state.workspace?.baseCommit);
    await expect(mergeRecordedRun({ git: createGitFacade() }, repo.dir, state.run_id)).rejects.toMatchObject({
      code: 'RUN_UNDONE',
    });
  });
});

describe('lathe run picks a model when none is given, and says which', () => {
  it('the default model in settings', async () => {
    const repo = exampleRepo();
    const home = tempDir('lathe-data-');
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ defaultModel: `replay:${REPLAY_FILE}` }));
    const { io, out } = capture(home);
    expect(await runCli(['run', '--repo', repo.dir, '--goal', 'fix median'], io)).toBe(0);
    expect(out[0]).toBe(
      `model: replay:${REPLAY_FILE} for coder, planner, tester (the default model in settings; --model SPEC picks another)`,
    );
  });

  it('with several usable GGUFs and no default it guesses nothing (exit 64, nothing created)', async () => {
    const repo = exampleRepo();
    const home = tempDir('lathe-data-');
    writeTinyModel(path.join(home, 'models'), 'a.gguf');
    writeTinyModel(path.join(home, 'models'), 'b.gguf');
    const { io, err } = capture(home);
    expect(await runCli(['run', '--repo', repo.dir, '--goal', 'fix median'], io)).toBe(64);
    expect(err.join('\n')).toMatch(
      /no default model: 2 usable GGUFs in the library[\s\S]*no model for coder, planner, tester/,
    );
    expect(fs.existsSync(path.join(repo.dir, '.lathe', 'runs'))).toBe(false);
  });
});

describe('smaller CLI fixes', () => {
  it('models --dir with a folder that does not exist is a usage error (64)', async () => {
    const { io, err } = capture(tempDir('lathe-data-'));
    expect(await runCli(['models', '--dir', '/nonexistent/models'], io)).toBe(64);
    expect(err[0]).toMatch(/^lathe models: --dir: \/nonexistent\/models is not a folder\n/);
  });

  it.each([['runs'], ['undo', '20260101T000000Z'], ['doctor', '--json']])(
    '%s outside a repository exits 64, like doctor',
    async (...args) => {
      const outside = tempDir('lathe-not-a-repo-');
      const { io } = capture(tempDir('lathe-data-'));
      expect(await runCli([...args, '--repo', outside], io)).toBe(64);
    },
  );

  it('a run that fails before its workspace exists (no commits yet) prints an absolute report path', async () => {
    const repo = makeTempRepo();
    cleanup.push(() => repo.remove());
    const elsewhere = tempDir('lathe-cwd-');
    const { io, out } = capture(tempDir('lathe-data-'), elsewhere);
    expect(
      await runCli(
        ['run', '--repo', repo.dir, '--goal', 'start', '--model', `replay:${REPLAY_FILE}`, '--test-command', 'true'],
        io,
      ),
    ).toBe(2);
    const report =
      out
        .find((line) => line.trim().startsWith('report: '))
        ?.trim()
        .slice('report: '.length) ?? '';
    expect(path.isAbsolute(report)).toBe(true);
    expect(fs.existsSync(report)).toBe(true);
    expect(fs.readFileSync(report, 'utf8')).toMatch(/NO_COMMITS/);
  });

  it('demo removes its temp folder unless --keep', async () => {
    const before = new Set(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('lathe-demo-')));
    const { io, out } = capture(tempDir('lathe-data-'));
    expect(await runCli(['demo'], io)).toBe(0);
    expect(out.join('\n')).toContain('(a temp folder, removed at the end; --keep keeps it)');
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('lathe-demo-') && !before.has(name))).toEqual(
      [],
    );
    const kept = capture(tempDir('lathe-data-'));
    expect(await runCli(['demo', '--keep'], kept.io)).toBe(0);
    const made = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('lathe-demo-') && !before.has(name));
    expect(made).toHaveLength(1);
    cleanup.push(() => fs.rmSync(path.join(os.tmpdir(), made[0] ?? 'none'), { recursive: true, force: true }));
    expect(kept.out.join('\n')).toContain(
      `report: ${path.join(os.tmpdir(), made[0] ?? '', 'js-stats', '.lathe', 'runs')}`,
    );
  });

  it('a resumed run counts its steps within the saved plan, never [0/0]', async () => {
    const repo = exampleRepo();
    const home = tempDir('lathe-data-');
    const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: 'minimal', model: `replay:${REPLAY_FILE}` });
    const controller = new AbortController();
    const stopped = await startRun(
      createEngineEnv({
        appRoot: APP_ROOT,
        dataDir: home,
        signal: controller.signal,
        callbacks: { onEvent: (event) => event.type === 'commit' && controller.abort() },
      }),
      { repoRoot: repo.dir, goal: 'fix median', config },
    );
    expect(stopped.status).toBe('aborted');
    const { io, out } = capture(home);
    expect(await runCli(['run', '--repo', repo.dir, '--resume', stopped.run_id], io)).toBe(0);
    expect(out.join('\n')).not.toContain('[0/');
    expect(out.join('\n')).toMatch(/\[2\/2\] T2 /);
  });
});
