import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateKind } from '../../../shared/schemas/gates';
import type { WorkflowName } from '../../../shared/schemas/workflowName';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { APP_ROOT, REPLAYS, runFixturePerTest } from '../../../test-support/exampleRepo';
import type { TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { readLog } from './runStore';

/** Issue 29: the bundled demo transcripts answer a rejected gate with a revised change for that step. */

const setup = runFixturePerTest();
const COMMENT = 'also test an even-length list';

/** The bundled replay of `workflow`, with `gate` in human mode; the first gate it opens is rejected with COMMENT. */
async function rejectOnce(workflow: WorkflowName, gate: GateKind, rejectAt: (gateId: string) => boolean = () => true) {
  const { repo, dataDir } = setup();
  const config = resolveRunConfig(
    { repoRoot: repo.dir },
    { workflow, model: `replay:${path.join(REPLAYS, `js-stats.${workflow}.json`)}`, gates: { [gate]: 'human' } },
  );
  let rejected = false;
  const env = createEngineEnv({
    appRoot: APP_ROOT,
    dataDir,
    retryBackoffMs: 1,
    callbacks: {
      decideGate: async (pending) => {
        if (rejected || !rejectAt(pending.gate_id)) return { approved: true, comment: null };
        rejected = true;
        return { approved: false, comment: COMMENT };
      },
    },
  });
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median and document it', config });
  const log = readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl'));
  return { state, log, repo, rejected };
}

/** Each commit on the run branch, oldest first: its step (from `lathe(T1): …`) and the files it changed. */
function commitsByStep(repo: TempRepo, branch: string): { step: string; files: string[] }[] {
  const out = repo.git('log', '--reverse', '--format=@%s', '--name-only', `main..${branch}`);
  return out
    .split('@')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [subject = '', ...files] = chunk.split('\n').filter(Boolean);
      return { step: /^lathe\(([^)]+)\)/.exec(subject)?.[1] ?? subject, files };
    });
}

const exhausted = (log: RunLogEvent[]) =>
  log.filter((event) => JSON.stringify(event.data).includes('REPLAY_EXHAUSTED'));

describe('the bundled demo transcripts after a rejected gate', () => {
  it('supervised: T1 rejected at its step gate is revised with the asked-for test, committed under T1 only, and the run completes', async () => {
    const { state, log, repo, rejected } = await rejectOnce('supervised', 'step');
    expect(rejected).toBe(true);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(exhausted(log)).toEqual([]);
    const decided = log.find((event) => event.type === 'gate_decided');
    expect(decided?.data).toMatchObject({ gate: 'step', approved: false, comment: COMMENT });
    const branch = state.branch ?? '';
    const commits = commitsByStep(repo, branch);
    // T1's commits, the revision included, hold T1's files only; README.md is T2's alone.
    for (const commit of commits.filter((entry) => entry.step === 'T1'))
      expect(commit.files.every((file) => ['src/stats.js', 'test/stats.test.js'].includes(file))).toBe(true);
    expect(commits.filter((entry) => entry.step === 'T2').flatMap((entry) => entry.files)).toEqual(['README.md']);
    // The revision is the step's last commit: the test the rejection asked for.
    const lastT1 = repo.git('log', '--format=%H', '--grep', '^lathe(T1)', branch).split('\n')[0] ?? '';
    expect(repo.git('show', '--format=', lastT1, '--', 'test/stats.test.js')).toContain(
      "+test('median of an even-length list is the mean of the middle pair'",
    );
    expect(repo.git('show', `${branch}:test/stats.test.js`)).toContain('median([4, 1, 3, 2]), 2.5');
  });

  it('supervised: T1 rejected at its code gate starts again with a whole revised change, never T2’s', async () => {
    const { state, log, repo } = await rejectOnce('supervised', 'code');
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(exhausted(log)).toEqual([]);
    const commits = commitsByStep(repo, state.branch ?? '');
    // Before the fix, the Coder's next main answer (T2's README change) was committed under T1.
    expect(commits.filter((entry) => entry.step === 'T1').flatMap((entry) => entry.files)).not.toContain('README.md');
    expect(repo.git('show', `${state.branch ?? ''}:test/stats.test.js`)).toContain('median([4, 1, 3, 2]), 2.5');
  });

  it('supervised: T2 rejected at its step gate gets its own revision (a README example)', async () => {
    const { state, log, repo } = await rejectOnce('supervised', 'step', (gateId) => gateId.endsWith('-T2'));
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(exhausted(log)).toEqual([]);
    expect(
      commitsByStep(repo, state.branch ?? '')
        .filter((entry) => entry.step === 'T2')
        .flatMap((entry) => entry.files),
    ).toEqual(['README.md', 'README.md']);
  });

  it('supervised: a rejected plan is answered by a revised plan, then the recorded steps', async () => {
    const { state, log } = await rejectOnce('supervised', 'plan');
    expect(exhausted(log)).toEqual([]);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(state.plans.map((plan) => [plan.plan_id, plan.status])).toEqual([
      ['plan_0001', 'failed'],
      ['plan_0002', 'completed'],
    ]);
    expect(JSON.stringify(log.filter((event) => event.type === 'plan').at(-1)?.data)).toContain('an even-length list');
  });

  it.each<[WorkflowName, GateKind]>([
    ['dev-agent', 'step'],
    ['dev-agent', 'code'],
    ['retry-loop', 'step'],
    ['retry-loop', 'code'],
    ['editor-scouts', 'step'],
    ['editor-scouts', 'code'],
  ])('%s with a rejected %s gate: revised and complete, no REPLAY_EXHAUSTED', async (workflow, gate) => {
    const { state, log, repo, rejected } = await rejectOnce(workflow, gate);
    expect(rejected).toBe(true);
    expect(exhausted(log)).toEqual([]);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(repo.git('show', `${state.branch ?? ''}:test/stats.test.js`)).toContain('median([4, 1, 3, 2]), 2.5');
  });

  it('minimal allows one attempt per task: a rejection fails the task by that limit, not by a spent transcript', async () => {
    const { state, log } = await rejectOnce('minimal', 'step');
    expect(exhausted(log)).toEqual([]);
    expect(state.result).toMatchObject({
      status: 'failed',
      reason: expect.stringContaining('T1 failed after 1 attempt(s)'),
    });
  });
});
