import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeExampleRepo, readReplay, REPLAYS, writeReplay } from '../../../../test-support/exampleRepo';
import { runLathe, spawnLathe, waitForLine } from '../../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../../test-support/tempRepo';
import { runCli } from '../main';

const MODEL = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
const cleanup: (() => void)[] = [];
afterEach(() => cleanup.splice(0).forEach((fn) => fn()));

function setup(): { repo: TempRepo; home: string } {
  const repo = makeExampleRepo('js-stats');
  const home = makeTempDir('lathe-home-');
  cleanup.push(
    () => repo.remove(),
    () => fs.rmSync(home, { recursive: true, force: true }),
  );
  return { repo, home };
}

const lastJson = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Record<string, unknown>;

describe('lathe run', () => {
  // In process: the warning comes before the preflight, which refuses here (no model), so nothing runs.
  it('warns, naming the kept file, when settings.json did not parse and the defaults stand in for it', async () => {
    const { repo, home } = setup();
    fs.writeFileSync(path.join(home, 'settings.json'), '{"defaultModel": "llama:/m.gguf",');
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(['run', '--repo', repo.dir, '--goal', 'fix median'], {
      out: (line) => out.push(line),
      err: (line) => err.push(line),
      env: { LATHE_HOME: home },
      cwd: home,
    });
    expect(code).toBe(64);
    const kept = fs.readdirSync(home).filter((name) => name.startsWith('settings.json.invalid-'));
    expect(kept).toHaveLength(1);
    expect(err[0]).toBe(err.find((line) => line.startsWith('warning: ')));
    expect(err[0]).toMatch(
      /^warning: .*settings\.json is not valid settings \(not JSON: .+\); it was set aside as .*settings\.json\.invalid-\d+ and the default settings are in use$/,
    );
    expect(err[0]).toContain(path.join(home, kept[0] ?? ''));
  });

  it('--json prints every event as a JSON line and ends with the summary line', async () => {
    const { repo, home } = setup();
    const result = await runLathe(['run', '--repo', repo.dir, '--goal', 'fix median', '--model', MODEL, '--json'], {
      env: { LATHE_HOME: home },
    });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.slice(0, -1).every((line) => typeof line.seq === 'number' && typeof line.type === 'string')).toBe(
      true,
    );
    const summary = lastJson(result.stdout);
    expect(summary).toEqual({
      status: 'complete',
      run_id: expect.stringMatching(/^\d{8}T\d{6}Z$/),
      branch: expect.stringMatching(/^lathe\//),
      commits: [expect.any(String), expect.any(String)],
      exit_code: 0,
      tokens: expect.objectContaining({ prompt: expect.any(Number), estimated: true }),
      elapsed_ms: expect.any(Number),
    });
  });

  it('prints human progress by default', async () => {
    const { repo, home } = setup();
    const result = await runLathe(['run', '--repo', repo.dir, '--goal', 'fix median', '--model', MODEL], {
      env: { LATHE_HOME: home },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /▶ run \d{8}T\d{6}Z · workflow minimal[\s\S]*\[1\/2\] T1[\s\S]*tests: PASS 3 passed, 0 failed[\s\S]*\[2\/2\] T2[\s\S]*✔ complete \(exit 0\)/,
    );
  });

  // docs/seeds.md 0.10: seed 000's tasks.yaml as a goals file
  it("runs seed 000's goals file one goal after another, then lists and undoes runs", async () => {
    const { repo, home } = setup();
    const goals = path.join(home, 'goals.yaml');
    fs.writeFileSync(goals, 'goals:\n  - fix median\n  - fix median again\n');
    const result = await runLathe(['run', '--repo', repo.dir, '--goals', goals, '--model', MODEL], {
      env: { LATHE_HOME: home },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('— goal 2/2: fix median again');
    const listed = JSON.parse((await runLathe(['runs', '--repo', repo.dir, '--json'])).stdout) as {
      runId: string;
      status: string;
      branch: string;
    }[];
    expect(listed.map((run) => run.status)).toEqual(['complete', 'complete']);
    const table = (await runLathe(['runs', '--repo', repo.dir])).stdout;
    expect(table).toMatch(/^RUN\s+STATUS\s+WORKFLOW/);
    const before = repo.git('for-each-ref', '--format=%(refname)', 'refs/heads');
    const undo = await runLathe(['undo', '--repo', repo.dir, listed[0]?.runId ?? '']);
    expect(undo.code).toBe(0);
    expect(repo.git('for-each-ref', '--format=%(refname)', 'refs/heads')).toBe(
      before
        .split('\n')
        .filter((ref) => ref !== `refs/heads/${listed[0]?.branch}`)
        .join('\n'),
    );
    expect(repo.git('worktree', 'list').split('\n')).toHaveLength(2);
  });

  // docs/seeds.md 3.4: resume from the last completed sub-step
  it('stops on Ctrl-C with a resumable state, and --resume finishes the run', async () => {
    const { repo, home } = setup();
    const outputs = readReplay('js-stats.minimal.json').outputs;
    const slow = writeReplay(home, 'slow', [{ ...outputs[0], delay_ms: 20_000 }, ...outputs.slice(1)]);
    const child = spawnLathe(['run', '--repo', repo.dir, '--goal', 'fix median', '--model', slow, '--json'], {
      env: { LATHE_HOME: home },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    await waitForLine(child, /"type":"agent_call"/);
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    const stopped = lastJson(stdout);
    expect(stopped).toMatchObject({ status: 'aborted', exit_code: 1 });
    const fast = writeReplay(home, 'slow', outputs);
    expect(fast).toBe(slow);
    const resumed = await runLathe(['run', '--repo', repo.dir, '--resume', String(stopped.run_id), '--json'], {
      env: { LATHE_HOME: home },
    });
    expect(resumed.code).toBe(0);
    expect(lastJson(resumed.stdout)).toMatchObject({ status: 'complete', run_id: stopped.run_id });
  });

  it('refuses a dirty work tree (exit 2) unless --allow-dirty, and then never touches the dirty file', async () => {
    const { repo, home } = setup();
    fs.writeFileSync(path.join(repo.dir, 'README.md'), 'my own edit\n');
    const refused = await runLathe(['run', '--repo', repo.dir, '--goal', 'fix median', '--model', MODEL], {
      env: { LATHE_HOME: home },
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('uncommitted change');
    expect(fs.existsSync(path.join(repo.dir, '.lathe', 'runs'))).toBe(false);
    const allowed = await runLathe(
      ['run', '--repo', repo.dir, '--goal', 'fix median', '--model', MODEL, '--allow-dirty'],
      { env: { LATHE_HOME: home } },
    );
    expect(allowed.code).toBe(0);
    expect(fs.readFileSync(path.join(repo.dir, 'README.md'), 'utf8')).toBe('my own edit\n');
  });

  it.each([
    [['run', '--goal', 'x'], 'no model'],
    [['run', '--model', MODEL], 'give exactly one of --goal'],
    [['run', '--goal', 'x', '--model', MODEL, '--workflow', 'turbo'], "unknown workflow 'turbo'"],
    [['run', '--goal', 'x', '--model', MODEL, '--gates', 'plan=maybe'], "--gates: 'plan=maybe'"],
    [['run', '--goal', 'x', '--model', MODEL, '--time-limit', 'soon'], 'not a duration'],
  ])('exits 64 on a usage error: %j', async (args, message) => {
    const { repo, home } = setup();
    const result = await runLathe([...args, '--repo', repo.dir], { env: { LATHE_HOME: home } });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(message);
  });
});

// docs/seeds.md 2.8: human approval of gates on the terminal
describe('lathe run --gates human on the terminal', () => {
  it('asks at each gate: a comment rejects and is fed back, y approves', async () => {
    const { repo, home } = setup();
    const child = spawnLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--workflow',
        'dev-agent',
        '--model',
        `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
        '--gates',
        'step=human',
      ],
      { env: { LATHE_HOME: home } },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.write('please document both functions in README.md\n');
    child.stdin.write('y\n');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(stdout.match(/gate step \(T1\) is waiting for you/g)).toHaveLength(2);
    expect(stdout).toContain('you rejected the step gate: please document both functions in README.md');
    expect(stdout).toContain('attempt 3 (critique fed back)');
    expect(stdout).toContain('you approved the step gate');
  });

  it('--yes approves every human gate, and without an answer the run stops at the gate, resumable', async () => {
    const { repo, home } = setup();
    const args = [
      'run',
      '--repo',
      repo.dir,
      '--goal',
      'fix median',
      '--workflow',
      'dev-agent',
      '--model',
      `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
      '--gates',
      'step=human',
      '--json',
    ];
    const yes = await runLathe([...args, '--yes'], { env: { LATHE_HOME: home } });
    expect(lastJson(yes.stdout)).toMatchObject({ status: 'complete' });
    const closed = spawnLathe(args, { env: { LATHE_HOME: home } });
    closed.stdin.end();
    let stdout = '';
    closed.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    expect(await new Promise((resolve) => closed.on('exit', resolve))).toBe(1);
    const summary = lastJson(stdout);
    expect(summary).toMatchObject({ status: 'aborted' });
    const state = JSON.parse(
      fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', String(summary.run_id), 'state.json'), 'utf8'),
    ) as { gate: { kind: string } | null; phase: string };
    expect(state).toMatchObject({ phase: 'step_review', gate: { kind: 'step' } });
  });
});
