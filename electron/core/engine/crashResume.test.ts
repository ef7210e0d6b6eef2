import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeExampleRepo, REPLAYS, treeAt } from '../../../test-support/exampleRepo';
import { runLathe } from '../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../test-support/tempRepo';
import { readLog } from './runStore';

const MODEL = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
const GOAL = 'fix median and document it';
const home = makeTempDir('lathe-home-');

interface Finished {
  tree: Record<string, string>;
  subjects: string[];
  status: string;
}

function finished(repo: TempRepo, runId: string): Finished {
  const state = JSON.parse(fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', runId, 'state.json'), 'utf8')) as { branch: string; status: string; workspace: { baseCommit: string } };
  const subjects = repo.git('log', '--format=%s', '--reverse', `${state.workspace.baseCommit}..${state.branch}`).split('\n').filter(Boolean);
  return { tree: treeAt(repo, state.branch), subjects, status: state.status };
}

function onlyRun(repo: TempRepo): string {
  const runs = fs.readdirSync(path.join(repo.dir, '.lathe', 'runs'));
  expect(runs).toHaveLength(1);
  return runs[0] ?? '';
}

let baseline: Finished;
let baselineEvents = 0;

beforeAll(async () => {
  const repo = makeExampleRepo('js-stats');
  const result = await runLathe(['run', '--repo', repo.dir, '--goal', GOAL, '--model', MODEL, '--json'], { env: { LATHE_HOME: home } });
  expect(result.code).toBe(0);
  const runId = onlyRun(repo);
  baseline = finished(repo, runId);
  baselineEvents = readLog(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl')).length;
  repo.remove();
}, 120_000);

afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

/** At least 20 distinct kill points spread over the whole run, first and last event included. */
function killPoints(): number[] {
  const count = Math.min(baselineEvents, 22);
  return [...new Set(Array.from({ length: count }, (_, index) => 1 + Math.round((index * (baselineEvents - 1)) / (count - 1))))];
}

describe('crash anywhere, resume to the same result', () => {
  it('has at least 20 distinct kill points in an uninterrupted run', () => {
    expect(baseline.status).toBe('complete');
    expect(baseline.subjects).toHaveLength(2);
    expect(killPoints().length).toBeGreaterThanOrEqual(20);
  });

  it('resumes after SIGKILL at each point to the same tree and commits, with a sound log', async () => {
    for (const point of killPoints()) {
      const repo = makeExampleRepo('js-stats');
      try {
        const killed = await runLathe(['run', '--repo', repo.dir, '--goal', GOAL, '--model', MODEL, '--json'], { env: { LATHE_HOME: home, LATHE_TEST_KILL_AT_EVENT: String(point) } });
        expect(killed.signal, `kill at event ${point}`).toBe('SIGKILL');
        const runId = onlyRun(repo);
        const resumed = await runLathe(['run', '--repo', repo.dir, '--resume', runId, '--json'], { env: { LATHE_HOME: home, LATHE_TEST_KILL_AT_EVENT: '' } });
        expect(resumed.code, `resume after kill at ${point}: ${resumed.stderr}`).toBe(0);
        expect(finished(repo, runId), `kill at event ${point}`).toEqual(baseline);
        const runDir = path.join(repo.dir, '.lathe', 'runs', runId);
        const log = readLog(path.join(runDir, 'log.jsonl'));
        log.forEach((event, index) => expect(event.seq, `kill at ${point}`).toBe(index + 1));
        expect(log.filter((event) => event.type === 'run_resumed').length).toBeLessThanOrEqual(1);
        expect(fs.existsSync(path.join(runDir, 'report.md'))).toBe(true);
        expect(fs.readdirSync(runDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
        expect(repo.git('status', '--porcelain')).toBe('');
      } finally {
        repo.remove();
      }
    }
  }, 600_000);
});
