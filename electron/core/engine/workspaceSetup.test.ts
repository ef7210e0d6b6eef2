import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_ROOT, makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { repoState } from '../../../test-support/gitState';
import { makeTempDir, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { readLog, runDir } from './runStore';

const MODEL = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

/** js-stats with a lathe.config.yaml whose `workspace.setup` is the given node script (never a shell string). */
function repoWithSetup(script: string): TempRepo {
  const repo = makeExampleRepo('js-stats');
  cleanup.push(() => repo.remove());
  repo.write('.gitignore', 'build/\n');
  repo.write(
    'lathe.config.yaml',
    `workspace:\n  setup: ${JSON.stringify([process.execPath, '-e', script])}\n  setup_timeout: 1m\n`,
  );
  repo.commitAll('configure a setup command');
  return repo;
}

async function run(repo: TempRepo) {
  const dataDir = makeTempDir('lathe-data-');
  cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = resolveRunConfig({ repoRoot: repo.dir }, { workflow: 'minimal', model: MODEL });
  const state = await startRun(createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 }), {
    repoRoot: repo.dir,
    goal: 'fix median',
    config,
  });
  const events = readLog(path.join(runDir(repo.dir, state.run_id), 'log.jsonl'));
  return { state, events };
}

describe('the workspace setup command', () => {
  it("runs in the run's worktree when it is prepared, logged with its output and exit code", async () => {
    const repo = repoWithSetup(
      "require('fs').mkdirSync('build'); require('fs').writeFileSync('build/where.txt', process.cwd()); console.log('set up')",
    );
    const { state, events } = await run(repo);
    expect(state.result?.status).toBe('complete');
    const setup = events.find((event) => event.type === 'workspace_setup');
    expect(setup?.data).toMatchObject({
      status: 'passed',
      exit_code: 0,
      timed_out: false,
      cwd: state.workspace?.workDir,
      output: expect.stringContaining('set up'),
    });
    expect(events.findIndex((event) => event.type === 'workspace_setup')).toBeLessThan(
      events.findIndex((event) => event.type === 'workspace_ready'),
    );
    const workDir = state.workspace?.workDir as string;
    expect(fs.realpathSync(fs.readFileSync(path.join(workDir, 'build/where.txt'), 'utf8'))).toBe(
      fs.realpathSync(workDir),
    );
    expect(fs.existsSync(path.join(repo.dir, 'build'))).toBe(false);
  });

  it('stops the run with a clear error when setup fails, and leaves nothing behind but the log', async () => {
    const repo = repoWithSetup("console.log('installing'); console.error('no registry reachable'); process.exit(3)");
    const before = repoState(repo.dir);
    const { state, events } = await run(repo);
    expect(state.result?.status).toBe('failed');
    expect(state.result?.reason).toMatch(
      /^WORKSPACE_SETUP_FAILED: the setup command `.+` exited with 3 in .+; last lines:\n[\s\S]*no registry reachable/,
    );
    const setup = events.find((event) => event.type === 'workspace_setup');
    expect(setup?.data).toMatchObject({
      status: 'failed',
      exit_code: 3,
      output: expect.stringContaining('no registry reachable'),
    });
    expect(fs.readFileSync(setup?.data.log_file as string, 'utf8')).toContain('installing');
    // Nothing of the run stays in git or on disk: no branch, no worktree; the user's repository is as it was.
    const after = repoState(repo.dir);
    expect({ ...after, files: undefined, status: undefined }).toEqual({
      ...before,
      files: undefined,
      status: undefined,
    });
    expect(after.status.split('\n').filter((line) => !line.startsWith('!! .lathe/runs/'))).toEqual(
      before.status ? before.status.split('\n') : [],
    );
    expect(repo.git('status', '--porcelain')).toBe('');
    expect(fs.existsSync(setup?.data.cwd as string)).toBe(false);
  });

  it('puts back a tracked file the setup rewrote; the log, the report and the detected command say so, and no commit carries it', async () => {
    const repo = repoWithSetup(
      "require('fs').appendFileSync('package.json', '\\n'); console.log('rewrote package.json')",
    );
    const { state, events } = await run(repo);
    expect(state.result?.status).toBe('complete');
    const setup = events.find((event) => event.type === 'workspace_setup');
    expect(setup?.data).toMatchObject({
      status: 'passed',
      restored: ['package.json'],
      note: expect.stringContaining('restored package.json: the setup changed tracked files'),
    });
    const ready = events.find((event) => event.type === 'workspace_ready');
    expect(ready?.data.test_command_source).toBe(
      'detected: node --test (package.json scripts.test "node --test", run directly (no npm, no shell))',
    );
    const changed = repo
      .git('diff', '--name-only', `${state.workspace?.baseCommit ?? ''}..${state.branch ?? ''}`)
      .split('\n');
    expect(changed).not.toContain('package.json');
    const report = fs.readFileSync(path.join(runDir(repo.dir, state.run_id), 'report.md'), 'utf8');
    expect(report).toContain('(detected: node --test (package.json scripts.test');
    expect(report).toMatch(/Setup: `.+` passed; restored package\.json: the setup changed tracked files/);
  });
});
