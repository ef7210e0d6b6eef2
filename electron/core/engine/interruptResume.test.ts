import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { WorkflowName } from '../../../shared/schemas/workflowName';
import { finished, GOAL, onlyRun } from '../../../test-support/crash';
import { makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { baselineWithLog, interruptAndResume, seqOf, type Baseline } from '../../../test-support/interrupt';
import { runLathe, spawnLathe } from '../../../test-support/runCli';
import { makeTempDir } from '../../../test-support/tempRepo';
import { readLog } from './runStore';

/**
 * Issue 27, item 5: Ctrl-C (SIGINT) or SIGTERM while any operation runs stops the run at its last
 * completed sub-step, exit 1, listed `aborted` and resumable; `--resume` then ends as an uninterrupted
 * run does. Today's finding: a stop during the tests ended `INFRA_ERROR … cancelled`, failed, exit 2.
 */
const home = makeTempDir('lathe-home-');
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

type Point = [string, (log: Baseline['log']) => number | null, 'SIGINT' | 'SIGTERM'];

/** Where each workflow is interrupted: during a model call, the tests, an apply, a review. */
const POINTS: Record<WorkflowName, Point[]> = {
  minimal: [
    ['during the Planner call', (log) => seqOf(log, 'agent_call'), 'SIGINT'],
    ['during an apply', (log) => seqOf(log, 'phase', { data: (data) => data.to === 'applying' }), 'SIGTERM'],
    ['during the tests of the first commit', (log) => seqOf(log, 'commit'), 'SIGINT'],
  ],
  'dev-agent': [
    ['during the first tests', (log) => seqOf(log, 'run_started'), 'SIGTERM'],
    ['during the tests of the first commit', (log) => seqOf(log, 'commit'), 'SIGINT'],
  ],
  'retry-loop': [['during the tests of the first commit', (log) => seqOf(log, 'commit'), 'SIGINT']],
  supervised: [
    ['during the plan review', (log) => seqOf(log, 'gate_opened'), 'SIGTERM'],
    ['during the tests of T2 (the finding)', (log) => seqOf(log, 'commit', { nth: 3 }), 'SIGINT'],
  ],
  'editor-scouts': [['during the tests of the first commit', (log) => seqOf(log, 'commit'), 'SIGTERM']],
};

/** `npm run test:soak`: every event of every workflow, SIGINT and SIGTERM in turn. */
const SOAK = process.env.LATHE_SOAK === '1';
const everyEvent = (log: Baseline['log']): Point[] =>
  log.map((event, index) => [`after ${event.type}`, () => event.seq, index % 2 === 0 ? 'SIGINT' : 'SIGTERM']);

describe.each(Object.keys(POINTS) as WorkflowName[])('Ctrl-C and SIGTERM, then --resume: %s', (workflow) => {
  it(
    'stops with exit 1 at the last completed sub-step, lists the run as resumable, and resumes to the uninterrupted result',
    async () => {
      const baseline = await baselineWithLog(workflow, home);
      expect(baseline.finished.status).toBe('complete');
      // The last events are written after the session's last step: a signal there finds nothing left to stop.
      const points = SOAK ? everyEvent(baseline.log.slice(0, -3)) : POINTS[workflow];
      for (const [name, pick, signal] of points) {
        const point = pick(baseline.log);
        expect(point, `${workflow}: ${name}`).not.toBeNull();
        const outcome = await interruptAndResume(workflow, point as number, signal, home);
        // The chosen points are all before the last step; the soak's later ones may find the run already done.
        if (!SOAK)
          expect(outcome.completedFirst, `${workflow}, ${signal} ${name}: the run ended before the signal`).toBe(false);
        if (SOAK)
          console.log(
            `${workflow} ${signal} after event ${point}: ${outcome.completedFirst ? 'completed first' : outcome.problems.length === 0 ? 'held' : 'FAILED'}`,
          );
        expect(outcome.problems, `${workflow}, ${signal} ${name} (after event ${point})`).toEqual([]);
        expect(outcome.finished, `${workflow}, ${signal} ${name}`).toEqual(baseline.finished);
      }
    },
    SOAK ? 4 * 60 * 60_000 : 300_000,
  );
});

describe('a second Ctrl-C', () => {
  it('quits at once, kills what was running, and still leaves a resumable run', async () => {
    const repo = makeExampleRepo('js-stats');
    const marks = makeTempDir('lathe-marks-');
    try {
      const [started, slow, late] = ['started', 'slow', 'late'].map((name) => path.join(marks, name)) as [
        string,
        string,
        string,
      ];
      fs.writeFileSync(slow, '');
      // A setup that ignores SIGTERM: the first stop waits out its grace period, and the second Ctrl-C lands meanwhile.
      const setup = `touch ${started}; trap "" TERM INT; if [ -e ${slow} ]; then for i in 1 2 3 4 5 6 7 8; do sleep 0.5; done; touch ${late}; fi`;
      const config = path.join(marks, 'lathe.yaml');
      fs.writeFileSync(config, `workspace:\n  setup: [sh, -c, ${JSON.stringify(setup)}]\n`);
      const args = [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        GOAL,
        '--workflow',
        'minimal',
        '--model',
        `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`,
        '--config',
        config,
        '--json',
      ];
      const child = spawnLathe(args, { env: { LATHE_HOME: home } });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await waitFor(() => fs.existsSync(started));
      child.kill('SIGINT');
      await waitFor(() => stderr.includes('stopping (SIGINT)'));
      child.kill('SIGINT');
      expect(await exited).toBe(1);
      const runId = onlyRun(repo);
      expect(stderr).toContain(`quit at once: run ${runId} is saved at its last completed sub-step`);
      const stop = readLog(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl')).findLast(
        (event) => event.type === 'run_stopped',
      );
      expect(stop?.data).toMatchObject({
        status: 'aborted',
        resumable: true,
        reason: expect.stringContaining('second SIGINT'),
      });
      // The setup's shell died with Lathe: it never reached its last command.
      await new Promise((resolve) => setTimeout(resolve, 4500));
      expect(fs.existsSync(late)).toBe(false);

      fs.rmSync(slow);
      const resumed = await runLathe(['run', '--repo', repo.dir, '--resume', runId, '--json'], {
        env: { LATHE_HOME: home },
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(finished(repo, runId).status).toBe('complete');
      expect(repo.git('status', '--porcelain')).toBe('');
    } finally {
      repo.remove();
      fs.rmSync(marks, { recursive: true, force: true });
    }
  }, 60_000);
});

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
