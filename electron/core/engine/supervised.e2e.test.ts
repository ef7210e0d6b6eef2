import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunConfig } from '../../../shared/engine/runConfig';
import { APP_ROOT, runFixturePerTest, treeAt, writeReplay } from '../../../test-support/exampleRepo';
import type { TempRepo } from '../../../test-support/tempRepo';
import { entry, README, STATS, steppedPlan, TWO_STEPS } from '../../../test-support/transcripts';
import { resolveRunConfig } from '../config/resolveConfig';
import { createDefaultDeps, createEngineEnv } from './defaultDeps';
import type { Clock } from './engineDeps';
import { resumeRun, startRun } from './runner';
import { readLog } from './runStore';

const setup = runFixturePerTest();

async function run(
  repo: TempRepo,
  dataDir: string,
  outputs: unknown[],
  edit: (config: RunConfig) => void = () => {},
  clock?: Clock & { advance?: () => void },
) {
  const config = resolveRunConfig(
    { repoRoot: repo.dir },
    { workflow: 'supervised', model: writeReplay(dataDir, 'transcript', outputs), editFormat: 'whole-file' },
  );
  edit(config);
  const deps = createDefaultDeps();
  const env = createEngineEnv({
    appRoot: APP_ROOT,
    dataDir,
    retryBackoffMs: 1,
    clock,
    deps: clock?.advance ? { ...deps, verify: async (request) => (clock.advance?.(), deps.verify(request)) } : deps,
  });
  const state = await startRun(env, { repoRoot: repo.dir, goal: 'fix median and document it', config });
  return { state, env, log: readLog(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'log.jsonl')) };
}

const greenStep = (taskId: string, content: string, file?: string) => [
  entry.coder(content, file),
  entry.tester(taskId),
  entry.supervisor(true, 90),
  entry.supervisor(true, 90),
];

describe('supervised (seed 002) end to end', () => {
  // docs/seeds.md 2.1 (every gate), 2.2 (verdicts), 2.18 (metrics)
  it('re-plans after the Supervisor rejects the plan, then completes every gate', async () => {
    const { repo, dataDir } = setup();
    const outputs = [
      entry.planner(TWO_STEPS),
      entry.supervisor(false, 40, 'steps must say which file they change'),
      entry.planner(TWO_STEPS),
      entry.supervisor(true, 88),
      ...greenStep('T1', STATS.fixed),
      ...greenStep('T2', README, 'README.md'),
      entry.supervisor(true, 95, 'goal met'),
    ];
    const { state, log } = await run(repo, dataDir, outputs);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(state.plans.map((plan) => [plan.plan_id, plan.status])).toEqual([
      ['plan_0001', 'failed'],
      ['plan_0002', 'completed'],
    ]);
    expect(
      log.filter((event) => event.type === 'verdict').map((event) => [event.data.gate, event.data.approved]),
    ).toEqual([
      ['plan', false],
      ['plan', true],
      ['code', true],
      ['step', true],
      ['code', true],
      ['step', true],
      ['goal', true],
    ]);
    expect(fs.existsSync(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'plan_0002.json'))).toBe(true);
    expect(treeAt(repo, state.branch ?? '')['src/stats.js']).toBe(STATS.fixed.trimEnd());
    // Two steps, then the goal gate's final full test run.
    expect(state.metrics).toMatchObject({ total_steps: 4, completed_steps: 2, verifications_passed: 3 });
  });

  // docs/seeds.md 2.10
  it('gives a blocked step a sub-plan, and its blocked sub-step a depth-2 sub-plan', async () => {
    const { repo, dataDir } = setup();
    const sub1 = steppedPlan([
      { id: 'T1', title: 'Sort a copy', artifacts: ['src/stats.js'] },
      { id: 'T2', title: 'Pick the middle', artifacts: ['src/stats.js'], depends_on: ['T1'] },
    ]);
    const sub2 = steppedPlan([
      { id: 'T1', title: 'Copy and sort', artifacts: ['src/stats.js'] },
      { id: 'T2', title: 'Average the middle pair', artifacts: ['src/stats.js'] },
    ]);
    const outputs = [
      entry.planner(TWO_STEPS),
      entry.supervisor(true, 90),
      entry.coder(STATS.wrong),
      entry.tester('T1', 'even lists fail'),
      entry.planner(sub1),
      entry.supervisor(true, 90),
      entry.coder(STATS.wrong),
      entry.tester('T1.1', 'still wrong'),
      entry.planner(sub2),
      entry.supervisor(true, 90),
      ...greenStep('T1.1.1', STATS.fixed),
      ...greenStep('T1.1.2', STATS.fixed),
      ...greenStep('T1.2', STATS.fixed),
      ...greenStep('T2', README, 'README.md'),
      entry.supervisor(true, 90),
    ];
    const { state, log } = await run(repo, dataDir, outputs, (config) => {
      config.limits.max_attempts_per_task = 1;
      config.limits.max_fix_cycles = 0;
    });
    expect(state.plans.map((plan) => [plan.plan_id, plan.depth, plan.parent_step_id, plan.status])).toEqual([
      ['plan_0001', 0, null, 'completed'],
      ['plan_0002', 1, 'T1', 'completed'],
      ['plan_0003', 2, 'T1.1', 'completed'],
    ]);
    expect(log.filter((event) => event.type === 'step_blocked').map((event) => event.data.step_id)).toEqual([
      'T1',
      'T1.1',
    ]);
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(treeAt(repo, state.branch ?? '')['src/stats.js']).toBe(STATS.fixed.trimEnd());
  });

  // docs/seeds.md 2.5 (escalation), 2.7 (ABORT ends the session with a report)
  it('escalates REMIND → CORRECT → REFOCUS → CRITICAL → ABORT on consecutive low scores and ends with a report', async () => {
    const { repo, dataDir } = setup();
    // Each attempt says something new (the same answer twice on the same base is refused, not reviewed again).
    const attempt = (taskId: string, n: number, last = false) => [
      entry.coder(`${STATS.fixed}// attempt ${n}\n`),
      entry.tester(taskId),
      entry.supervisor(true, 65, 'no test for even lists'),
      ...(last ? [] : [entry.supervisor(false, 65, 'no test for even lists')]),
    ];
    const outputs = [
      entry.planner(TWO_STEPS),
      entry.supervisor(true, 90),
      ...attempt('T1', 1),
      ...attempt('T1', 2),
      ...attempt('T1', 3, true),
    ];
    const { state, log } = await run(repo, dataDir, outputs, (config) => {
      config.limits.max_fix_cycles = 0;
      config.limits.max_attempts_per_task = 5;
    });
    expect(
      log
        .filter((event) => event.type === 'verdict' && event.data.gate !== 'plan')
        .map((event) => event.data.escalation),
    ).toEqual(['REMIND', 'CORRECT', 'REFOCUS', 'CRITICAL', 'ABORT']);
    expect(state.result).toMatchObject({ status: 'aborted', exit_code: 1 });
    expect(state.result?.reason).toContain('ABORT');
    const report = fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', state.run_id, 'report.md'), 'utf8');
    expect(report).toContain('— aborted');
  });

  // docs/seeds.md 2.16
  it('stops with time_expired mid-step on its time budget (fake clock), and resumes to completion', async () => {
    const { repo, dataDir } = setup();
    let offset = 0;
    let verifies = 0;
    // Each test run after the run's baseline takes 20 minutes of the fake clock.
    const clock = {
      now: () => new Date(Date.UTC(2026, 0, 1) + offset),
      advance: () => (verifies++ > 0 ? (offset += 20 * 60_000) : offset),
    };
    const outputs = [
      entry.planner(TWO_STEPS),
      entry.supervisor(true, 90),
      ...greenStep('T1', STATS.fixed),
      ...greenStep('T2', README, 'README.md'),
      entry.supervisor(true, 95),
    ];
    const first = await run(
      repo,
      dataDir,
      outputs,
      (config) => {
        config.time_limit_ms = 30 * 60_000;
      },
      clock,
    );
    expect(first.state).toMatchObject({ status: 'time_expired', phase: 'testing', current_step_id: 'T2' });
    expect(first.log.find((event) => event.type === 'run_stopped')?.data).toMatchObject({
      status: 'time_expired',
      resumable: true,
    });
    const resumed = await resumeRun(first.env, {
      repoRoot: repo.dir,
      runId: first.state.run_id,
      timeLimitMs: 120 * 60_000,
    });
    expect(resumed.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(resumed.commits).toHaveLength(2);
  });
});
