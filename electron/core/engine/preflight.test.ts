import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import { preflightProblemsOf } from '../../../shared/schemas/preflight';
import { APP_ROOT, makeExampleRepo, REPLAYS, writeReplay } from '../../../test-support/exampleRepo';
import { writeJunkGguf, writeTinyModel } from '../../../test-support/gguf';
import { gitIn } from '../../../test-support/gitState';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { dispatch } from '../api/dispatch';
import { createCore } from '../api/coreHandlers';
import { EventBus } from '../runs/eventBus';
import type { CliIo } from '../cli/command';
import { runCli } from '../cli/main';
import { resolveRunConfig } from '../config/resolveConfig';
import { detectTestCommand } from '../workspace/index';
import { checkGoalSize, checkRunInputs } from './preflight';

const REPLAY = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
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

/** Branches, worktrees and run folders: what a refused start must not leave behind. */
function footprint(repo: TempRepo) {
  const runs = path.join(repo.dir, '.lathe', 'runs');
  return {
    branches: repo.git('for-each-ref', '--format=%(refname)', 'refs/heads'),
    worktrees: repo.git('worktree', 'list', '--porcelain'),
    runFolders: fs.existsSync(runs) ? fs.readdirSync(runs) : [],
    head: repo.git('rev-parse', 'HEAD'),
    status: repo.git('status', '--porcelain'),
  };
}

function capture(home: string): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { out: (line) => out.push(line), err: (line) => err.push(line), env: { LATHE_HOME: home }, cwd: home },
    out,
    err,
  };
}

describe('lathe run refuses bad input before it creates anything (exit 64)', () => {
  const home = () => tempDir('lathe-home-');
  const cases: [string, (dir: string) => string[], RegExp][] = [
    [
      'a missing GGUF',
      (dir) => ['--goal', 'fix median', '--model', `llama:${path.join(dir, 'absent.gguf')}`],
      /no model file at .*absent\.gguf.*\[MODEL_NOT_FOUND\]/,
    ],
    [
      'a junk GGUF',
      (dir) => ['--goal', 'fix median', '--model', `llama:${writeJunkGguf(dir)}`],
      /junk\.gguf cannot be used: not a GGUF file.*\[MODEL_REJECTED\]/,
    ],
    [
      'a replay file that does not parse',
      (dir) => ['--goal', 'fix median', '--model', writeReplay(dir, 'broken', [{ role: 'planner' }])],
      /outputs\[0\] must have exactly one of json, raw, error.*\[BAD_REPLAY_FILE\]/,
    ],
    [
      'a missing replay file',
      (dir) => ['--goal', 'fix median', '--model', `replay:${path.join(dir, 'none.json')}`],
      /cannot read replay file .*none\.json \(ENOENT\).*\[BAD_REPLAY_FILE\]/,
    ],
    [
      'a host that is not allowed',
      () => ['--goal', 'fix median', '--model', 'openai:http://192.168.1.20:8080/v1#qwen'],
      /'192\.168\.1\.20:8080' is another host.*models\.allow_hosts.*\[HOST_NOT_ALLOWED\]/,
    ],
    ['an empty goal', () => ['--goal', '', '--model', REPLAY], /the goal is blank.*\[BLANK_GOAL\]/],
    ['a goal of spaces', () => ['--goal', '   ', '--model', REPLAY], /the goal is blank.*\[BLANK_GOAL\]/],
    // Issue 29: a 200 KB goal failed mid-run (advice about edit formats), leaving a branch.
    [
      'a 200 KB goal',
      () => ['--goal', 'word '.repeat(40_960), '--model', REPLAY],
      /the goal is 51200 tokens; the smallest role window is 16384 tokens \(the coder's, 1024 of them kept for its answer\).*\[GOAL_TOO_LONG\]/,
    ],
  ];

  it.each(cases)('%s', async (_name, args, message) => {
    const repo = exampleRepo();
    const dir = home();
    const before = footprint(repo);
    const { io, err } = capture(dir);
    expect(await runCli(['run', '--repo', repo.dir, ...args(dir)], io)).toBe(64);
    expect(err.join('\n')).toMatch(message);
    expect(err.join('\n')).toContain('nothing was created');
    expect(footprint(repo)).toEqual(before);
    expect(before.runFolders).toEqual([]);
  });

  it('a repository with no test command configured or detected', async () => {
    const repo = makeTempRepo({ files: { 'README.md': '# notes\n', 'src/a.js': 'export const a = 1;\n' } });
    cleanup.push(() => repo.remove());
    const before = footprint(repo);
    const { io, err } = capture(home());
    expect(await runCli(['run', '--repo', repo.dir, '--goal', 'add b', '--model', REPLAY], io)).toBe(64);
    expect(err.join('\n')).toMatch(/no test command: none is configured and none was found in .*\[NO_TEST_COMMAND\]/);
    expect(footprint(repo)).toEqual(before);
    expect(fs.existsSync(path.join(repo.dir, '.lathe'))).toBe(false);
  });

  // Decision 75: a package.json that is there but cannot be read is not a missing one; detection must
  // not fall through to the Makefile's `make test` and start the run on the wrong tests.
  it('a repository whose package.json cannot be read, with a Makefile test target past it', async () => {
    const repo = makeTempRepo({
      files: {
        'package.json/README': 'a folder where the manifest should be\n',
        Makefile: 'test:\n\ttrue\n',
        'src/a.js': 'export const a = 1;\n',
      },
    });
    cleanup.push(() => repo.remove());
    const before = footprint(repo);
    const { io, err } = capture(home());
    expect(await runCli(['run', '--repo', repo.dir, '--goal', 'add b', '--model', REPLAY], io)).toBe(64);
    expect(err.join('\n')).toMatch(
      /cannot tell the test command: .*package\.json exists but could not be read: EISDIR.*\[TEST_MANIFEST_UNREADABLE\]/,
    );
    expect(err.join('\n')).toContain('nothing was created');
    expect(footprint(repo)).toEqual(before);
    expect(fs.existsSync(path.join(repo.dir, '.lathe'))).toBe(false);
  });

  // The preflight reads the user's copy; the run's checkout is HEAD's. Past the preflight, the same
  // refusal stops the run at prepare and takes the fresh worktree and branch back.
  it("a run whose checkout has a package.json that does not parse, the user's copy fixed but not committed", async () => {
    const repo = makeTempRepo({
      files: {
        'package.json': '{"scripts": {"test": "node --test"',
        Makefile: 'test:\n\ttrue\n',
        'src/a.js': 'export const a = 1;\n',
      },
    });
    cleanup.push(() => repo.remove());
    repo.write('package.json', '{"scripts": {"test": "node --test"}}\n');
    const branches = repo.git('for-each-ref', '--format=%(refname)', 'refs/heads');
    const worktrees = repo.git('worktree', 'list', '--porcelain');
    const { io, out, err } = capture(home());
    expect(
      await runCli(['run', '--repo', repo.dir, '--goal', 'add b', '--model', REPLAY, '--allow-dirty'], io),
    ).not.toBe(0);
    expect([...out, ...err].join('\n')).toMatch(
      /cannot tell the test command of the run's checkout: .*package\.json exists but could not be read as JSON/,
    );
    expect(repo.git('for-each-ref', '--format=%(refname)', 'refs/heads')).toBe(branches);
    expect(repo.git('worktree', 'list', '--porcelain')).toBe(worktrees);
  });

  it('names every problem at once, each with its code', async () => {
    const repo = exampleRepo();
    const dir = home();
    const { io, err } = capture(dir);
    expect(
      await runCli(
        [
          'run',
          '--repo',
          repo.dir,
          '--goal',
          ' ',
          '--model',
          `llama:${writeJunkGguf(dir)}`,
          '--role-model',
          `coder=llama:${path.join(dir, 'none.gguf')}`,
        ],
        io,
      ),
    ).toBe(64);
    const lines = err.join('\n').split('\n');
    expect(lines.filter((line) => line.startsWith('  - ')).map((line) => /\[(\w+)\]$/.exec(line)?.[1])).toEqual([
      'BLANK_GOAL',
      'MODEL_NOT_FOUND',
      'MODEL_REJECTED',
    ]);
    expect(lines.find((line) => line.includes('MODEL_REJECTED'))).toContain('(model of planner, tester)');
  });
});

describe('the goal must fit the smallest window of the roles the run calls', () => {
  const config = (contextSizes: Partial<Record<'planner' | 'coder' | 'tester', number>>) => {
    const resolved = resolveRunConfig({ repoRoot: os.tmpdir() }, { workflow: 'minimal', model: REPLAY });
    for (const [role, size] of Object.entries(contextSizes)) {
      const model = resolved.models[role as keyof typeof contextSizes];
      if (model) model.context_size = size;
    }
    return resolved;
  };

  it('names the role with the least room, by its configured context_size', () => {
    const problems = checkGoalSize('x'.repeat(8_000), WORKFLOWS.minimal, config({ tester: 2_048, planner: 32_768 }));
    expect(problems).toEqual([
      {
        code: 'GOAL_TOO_LONG',
        field: 'goal',
        roles: ['tester'],
        spec: REPLAY,
        message: expect.stringMatching(
          /^the goal is 2000 tokens; the smallest role window is 2048 tokens \(the tester's/,
        ),
      },
    ]);
  });

  it('lets a goal through that fits beside every answer', () => {
    expect(checkGoalSize('x'.repeat(8_000), WORKFLOWS.minimal, config({ tester: 4_096 }))).toEqual([]);
  });
});

describe('lathe demo and lathe eval use the same checks', () => {
  it('demo --model with a junk GGUF exits 64 and removes its temp folder', async () => {
    const dir = tempDir('lathe-home-');
    const tempsBefore = fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('lathe-demo-'));
    const { io, err } = capture(dir);
    expect(await runCli(['demo', '--model', `llama:${writeJunkGguf(dir)}`], io)).toBe(64);
    expect(err.join('\n')).toMatch(/\[MODEL_REJECTED\]/);
    expect(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('lathe-demo-'))).toEqual(tempsBefore);
  });

  it('demo --dir keeps the example repository, with no branch, worktree or run folder in it', async () => {
    const dir = tempDir('lathe-home-');
    const { io } = capture(dir);
    expect(await runCli(['demo', '--dir', dir, '--model', `replay:${path.join(dir, 'missing.json')}`], io)).toBe(64);
    const repo = path.join(dir, 'js-stats');
    const git = (...args: string[]) => gitIn(repo, ...args);
    expect(git('for-each-ref', '--format=%(refname)', 'refs/heads')).toBe('refs/heads/main');
    expect(git('worktree', 'list').split('\n')).toHaveLength(1);
    expect(fs.existsSync(path.join(repo, '.lathe', 'runs'))).toBe(false);
  });

  it('eval with a junk GGUF exits 64 naming MODEL_REJECTED before any task runs', async () => {
    const dir = tempDir('lathe-home-');
    const { io, err, out } = capture(dir);
    expect(
      await runCli(['eval', '--tasks', 'py-roman', '--model', `llama:${writeJunkGguf(dir)}`, '--out', 'report'], io),
    ).toBe(64);
    expect(err.join('\n')).toMatch(
      /junk\.gguf cannot be used: not a GGUF file .*needed for task py-roman \[MODEL_REJECTED\]/,
    );
    expect(out).toEqual([]);
    expect(fs.existsSync(path.join(dir, 'report'))).toBe(false);
  });
});

describe('the window: run/start', () => {
  it('returns PREFLIGHT_FAILED with each problem by field, and creates nothing', async () => {
    const repo = exampleRepo();
    const dataDir = tempDir('lathe-data-');
    const junk = writeJunkGguf(dataDir);
    const handlers = {
      ...createCore({ mode: 'browser', dataDir, events: new EventBus(), appRoot: APP_ROOT }).handlers,
      'dialog/openFolder': async () => ({ path: null }),
    };
    const before = footprint(repo);
    const result = await dispatch(handlers, 'run/start', {
      repo: repo.dir,
      goal: 'fix median',
      workflow: 'minimal',
      model: REPLAY,
      roleModels: { coder: `llama:${junk}` },
    });
    expect(result.ok).toBe(false);
    const problems = result.ok ? null : preflightProblemsOf(result.error);
    expect(problems).toEqual([
      {
        code: 'MODEL_REJECTED',
        field: 'model',
        roles: ['coder'],
        spec: `llama:${junk}`,
        message: expect.stringContaining('not a GGUF file'),
      },
    ]);
    expect(footprint(repo)).toEqual(before);
  });
});

describe('checkRunInputs', () => {
  it('accepts a usable GGUF, a parsing replay file and a loopback server without contacting it', async () => {
    const repo = exampleRepo();
    const dir = tempDir('lathe-models-');
    const { modelPath } = writeTinyModel(dir);
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      {
        workflow: 'supervised',
        model: `llama:${modelPath}`,
        roleModels: { tester: REPLAY, supervisor: 'openai:http://127.0.0.1:9/v1#m' },
      },
    );
    expect(
      await checkRunInputs({ repoRoot: repo.dir, goal: 'fix median', config }, WORKFLOWS.supervised, {
        detectTestCommand,
      }),
    ).toEqual([]);
  });

  it('reports a role without a model, and a configured test command needs no detection', async () => {
    const repo = makeTempRepo({ files: { 'README.md': 'x\n' } });
    cleanup.push(() => repo.remove());
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      { workflow: 'minimal', roleModels: { coder: REPLAY }, testCommand: ['true'] },
    );
    const problems = await checkRunInputs({ repoRoot: repo.dir, goal: 'x', config }, WORKFLOWS.minimal, {
      detectTestCommand: async () => null,
    });
    expect(problems.map((problem) => [problem.code, problem.field, problem.roles])).toEqual([
      ['NO_MODEL', 'model', ['planner', 'tester']],
    ]);
  });
});
