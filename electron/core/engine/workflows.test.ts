import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveRunConfig, type ConfigOverrides } from '../config/resolveConfig';
import { readLog } from './runStore';
import { createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { APP_ROOT, REPLAYS, makeRunFixture, readReplay, treeAt, writeReplay } from '../../../test-support/exampleRepo';
import type { TempRepo } from '../../../test-support/tempRepo';

const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

function setup(example: 'js-stats' | 'py-stats' = 'js-stats') {
  const fixture = makeRunFixture(example);
  cleanup.push(fixture.cleanup);
  return { repo: fixture.repo, dataDir: fixture.dataDir, base: fixture.repo.git('rev-parse', 'HEAD') };
}

async function run(repo: TempRepo, dataDir: string, overrides: ConfigOverrides, goal = 'fix median') {
  const config = resolveRunConfig({ repoRoot: repo.dir }, overrides);
  const env = createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 });
  const state = await startRun(env, { repoRoot: repo.dir, goal, config });
  const log = readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl'));
  return { state, log };
}

function expectSoundLog(log: ReturnType<typeof readLog>) {
  expect(log.length).toBeGreaterThan(5);
  log.forEach((event, index) => expect(event.seq).toBe(index + 1));
}

function subjects(repo: TempRepo, base: string, branch: string): string[] {
  return repo.git('log', '--format=%s', '--reverse', `${base}..${branch}`).split('\n').filter(Boolean);
}

const fixedStats =
  (readReplay('js-stats.minimal.json').outputs[1]?.json as { edits: { content: string }[] }).edits[0]?.content ?? '';

describe('minimal (seed 000) end to end', () => {
  // docs/seeds.md 0.6 (whole files), 0.20 (the plan), 0.25 (code → apply → test → Tester → next), 0.26 (log types)
  it('plans two tasks, commits each, verifies with node --test and completes on the run branch', async () => {
    const { repo, dataDir, base } = setup('js-stats');
    const { state, log } = await run(repo, dataDir, {
      workflow: 'minimal',
      model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`,
    });
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    const branch = state.branch ?? '';
    expect(subjects(repo, base, branch)).toEqual([
      'lathe(T1): Fix median() to return the middle value',
      'lathe(T2): Document mean() and median() in README.md',
    ]);
    expect(repo.git('fsck', '--strict')).toBe('');
    const tree = treeAt(repo, branch);
    expect(tree['src/stats.js']).toBe(fixedStats.trimEnd());
    expect(tree['README.md']).toContain('`median(values)`');
    expect(tree['test/stats.test.js']).toBe(treeAt(repo, base)['test/stats.test.js']);
    expect(repo.git('rev-parse', 'main')).toBe(base);
    expect(repo.git('status', '--porcelain')).toBe('');
    expectSoundLog(log);
    // The suite at the start (the baseline every run records: it fails, the bug is there), then one run per task.
    expect(
      log.filter((event) => event.type === 'test_result').map((event) => [event.data.purpose, event.data.status]),
    ).toEqual([
      ['baseline', 'FAIL'],
      ['step', 'PASS'],
      ['step', 'PASS'],
    ]);
    expect(log.find((event) => event.type === 'plan')?.data.tasks).toEqual([
      expect.objectContaining({ id: 'T1', artifacts: ['src/stats.js'] }),
      expect.objectContaining({ id: 'T2' }),
    ]);
    expect(log.filter((event) => event.type === 'patch').map((event) => event.data.format)).toEqual([
      'whole-file',
      'whole-file',
    ]);
    const flow = log
      .filter((event) => ['plan', 'patch', 'commit', 'test_result', 'tester_report'].includes(event.type))
      .map((event) => event.type);
    expect(flow).toEqual([
      'test_result',
      'plan',
      'patch',
      'commit',
      'test_result',
      'tester_report',
      'patch',
      'commit',
      'test_result',
      'tester_report',
    ]);
    expect(fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'report.md'), 'utf8')).toContain(
      `Run id: ${state.run_id}`,
    );
    expect(fs.existsSync(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'plan_0001.json'))).toBe(true);
  });

  // docs/seeds.md 0.23: the Coder edits only the task's artifacts
  it("halts with the guardrail's error when the Coder edits a file outside the task's artifacts", async () => {
    const { repo, dataDir, base } = setup('js-stats');
    const transcript = readReplay('js-stats.minimal.json').outputs;
    const model = writeReplay(dataDir, 'outside', [
      transcript[0],
      { role: 'coder', json: { edits: [{ path: 'src/other.js', content: 'export {};\n' }] } },
    ]);
    const { state, log } = await run(repo, dataDir, { workflow: 'minimal', model });
    expect(state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(state.result?.reason).toContain('not-an-artifact');
    expect(log.find((event) => event.type === 'edit_rejected')?.data).toMatchObject({
      rule: 'not-an-artifact',
      path: 'src/other.js',
    });
    expect(state.commits).toEqual([]);
    expect(subjects(repo, base, state.branch ?? '')).toEqual([]);
    expect(fs.existsSync(path.join(state.workspace?.workDir ?? '', 'src', 'other.js'))).toBe(false);
  });

  // docs/seeds.md 0.15: pytest, its exit code and output captured
  it("runs seed 000's default runner, pytest, on the Python example", async () => {
    const { repo, dataDir, base } = setup('py-stats');
    const fixed = fs
      .readFileSync(path.join(repo.dir, 'stats.py'), 'utf8')
      .replace(
        '    return mean(values)\n',
        '    ordered = sorted(values)\n    middle = len(ordered) // 2\n    if len(ordered) % 2:\n        return ordered[middle]\n    return (ordered[middle - 1] + ordered[middle]) / 2\n',
      );
    const model = writeReplay(dataDir, 'py', [
      {
        role: 'planner',
        json: {
          plan_id: 'plan_0001',
          tasks: [
            {
              id: 'T1',
              title: 'Fix median()',
              rationale: 'it returns the mean',
              acceptance: 'tests pass',
              artifacts: ['stats.py'],
            },
          ],
        },
      },
      { role: 'coder', json: { edits: [{ path: 'stats.py', content: fixed }] } },
      { role: 'tester', json: { task_id: 'T1', passed: true, report: '3 passed' } },
    ]);
    const { state, log } = await run(repo, dataDir, { workflow: 'minimal', model });
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(state.test_command?.join(' ')).toContain('pytest');
    expect(log.find((event) => event.type === 'test_result' && event.data.purpose === 'step')?.data).toMatchObject({
      status: 'PASS',
      counts: { passed: 3, failed: 0 },
    });
    expect(subjects(repo, base, state.branch ?? '')).toEqual(['lathe(T1): Fix median()']);
  });
});

describe('retry-loop (seed 003) end to end', () => {
  // docs/seeds.md 3.5 (attempt 0 generates, attempt 1 patches with the failing output), 3.15 (full files)
  it('generates, fails, patches with the failing output, and completes', async () => {
    const { repo, dataDir, base } = setup('js-stats');
    // The replay's patch also documents median() in README.md, which a goal must ask for (scope, issue 26).
    const { state, log } = await run(
      repo,
      dataDir,
      { workflow: 'retry-loop', model: `replay:${path.join(REPLAYS, 'js-stats.retry-loop.json')}` },
      'fix median and document it in README.md',
    );
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(
      log
        .filter((event) => event.type === 'test_result' && event.data.purpose === 'step')
        .map((event) => event.data.status),
    ).toEqual(['FAIL', 'PASS']);
    expect(log.filter((event) => event.type === 'patch').map((event) => event.data.format)).toEqual([
      'whole-file',
      'whole-file',
    ]);
    expect(log.find((event) => event.type === 'retry')?.data).toMatchObject({ attempt: 2, feedback: 'test_output' });
    expect(subjects(repo, base, state.branch ?? '')).toHaveLength(2);
    expect(treeAt(repo, state.branch ?? '')['src/stats.js']).toBe(fixedStats.trimEnd());
    expectSoundLog(log);
  });

  // docs/seeds.md 3.6
  it('stops at max_retries with status failed (1 generation + 3 patches)', async () => {
    const { repo, dataDir } = setup('js-stats');
    const wrong = readReplay('js-stats.retry-loop.json').outputs[0] as {
      role: string;
      json: { edits: { path: string; content: string }[] };
    };
    // Five different wrong answers: the same one again would end the attempts at the third (decision 97).
    const wrongs = [1, 2, 3, 4, 5].map((n) => ({
      ...wrong,
      json: { edits: wrong.json.edits.map((edit) => ({ ...edit, content: `${edit.content}\n// try ${n}\n` })) },
    }));
    const model = writeReplay(dataDir, 'wrong', wrongs);
    const { state, log } = await run(repo, dataDir, { workflow: 'retry-loop', model });
    expect(state.result).toMatchObject({ status: 'failed', exit_code: 1 });
    expect(log.filter((event) => event.type === 'agent_call' && event.role === 'coder')).toHaveLength(4);
  });
});

describe('dev-agent (seed 001) end to end', () => {
  // docs/seeds.md 1.1 (Supervisor, DevAgent, ShellTool, GitTool), 1.4 (unified diffs), 1.5 (tests → first failure → diff → commit → re-test → Supervisor)
  it('fixes the first failure, takes the Supervisor critique, and ends approved', async () => {
    const { repo, dataDir, base } = setup('js-stats');
    const { state, log } = await run(repo, dataDir, {
      workflow: 'dev-agent',
      model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
    });
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(log.filter((event) => event.type === 'verdict').map((event) => event.data.approved)).toEqual([false, true]);
    expect(log.find((event) => event.type === 'test_result')?.data).toMatchObject({
      purpose: 'preflight',
      status: 'FAIL',
    });
    expect(log.filter((event) => event.type === 'patch').every((event) => event.data.format === 'unified-diff')).toBe(
      true,
    );
    expect(subjects(repo, base, state.branch ?? '')).toHaveLength(3);
    expect(treeAt(repo, state.branch ?? '')['src/stats.js']).toBe(fixedStats.trimEnd());
    expect(fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'pr-description.md'), 'utf8')).toContain(
      '## How verified',
    );
  });

  // docs/seeds.md 1.8: green on the first run → exit 0
  it('exits 0 on an already-green repository without calling a model', async () => {
    const { repo, dataDir } = setup('js-stats');
    fs.writeFileSync(path.join(repo.dir, 'src', 'stats.js'), fixedStats);
    repo.commitAll('fix median by hand');
    const { state, log } = await run(repo, dataDir, {
      workflow: 'dev-agent',
      model: writeReplay(dataDir, 'empty', []),
    });
    expect(state.result).toMatchObject({
      status: 'complete',
      exit_code: 0,
      reason: expect.stringContaining('nothing to do'),
    });
    expect(log.some((event) => event.type === 'agent_call')).toBe(false);
    expect(state.commits).toEqual([]);
  });
});
