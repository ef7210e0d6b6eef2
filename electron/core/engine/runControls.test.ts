import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { APP_ROOT, REPLAYS, runFixturePerTest, writeReplay } from '../../../test-support/exampleRepo';
import { entry, README, STATS, TWO_STEPS } from '../../../test-support/transcripts';
import { resolveRunConfig } from '../config/resolveConfig';
import { createEngineEnv } from './defaultDeps';
import type { GateDecision } from './runSession';
import { resumeRun, startRun } from './runner';
import { readLog } from './runStore';

/** Pause (after the current operation, resumable) and the time a run spends waiting for a person. */

const setup = runFixturePerTest();
const logOf = (repoDir: string, runId: string) => readLog(path.join(repoDir, '.lathe', 'runs', runId, 'log.jsonl'));
const types = (log: RunLogEvent[]) => log.map((event) => event.type);

describe('Pause', () => {
  it('lets the model call under way finish and be saved, stops with status paused, and resumes without calling it again', async () => {
    const { repo, dataDir } = setup();
    const pause = new AbortController();
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      { workflow: 'minimal', model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}` },
    );
    const onEvent = (event: RunLogEvent) => {
      if (event.type === 'agent_call' && event.role === 'coder') pause.abort();
    };
    const env = createEngineEnv({
      appRoot: APP_ROOT,
      dataDir,
      retryBackoffMs: 1,
      pause: pause.signal,
      callbacks: { onEvent },
    });
    const paused = await startRun(env, { repoRoot: repo.dir, goal: 'fix median', config });
    expect(paused).toMatchObject({ status: 'paused', phase: 'applying' });
    const first = logOf(repo.dir, paused.run_id);
    const tail = types(first).slice(types(first).indexOf('agent_call', types(first).indexOf('plan')));
    expect(tail).toEqual(expect.arrayContaining(['pause_requested', 'agent_output', 'run_stopped']));
    expect(tail.indexOf('agent_output')).toBeLessThan(tail.indexOf('run_stopped'));
    expect(first.findLast((event) => event.type === 'run_stopped')?.data).toMatchObject({
      status: 'paused',
      resumable: true,
      reason: 'paused by the user after the current step; resumable',
    });

    const resumed = await resumeRun(createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 }), {
      repoRoot: repo.dir,
      runId: paused.run_id,
    });
    expect(resumed.result).toMatchObject({ status: 'complete', exit_code: 0 });
    const coderCalls = logOf(repo.dir, paused.run_id).filter(
      (event) => event.type === 'agent_call' && event.role === 'coder',
    );
    expect(coderCalls.map((event) => event.data.step_id)).toEqual(['T1', 'T2']);
    // Calls go on being numbered after the resume: one record per call, none written over.
    const calls = logOf(repo.dir, paused.run_id).filter((event) => event.type === 'agent_call');
    expect(calls.map((event) => event.data.call)).toEqual(calls.map((_, index) => index + 1));
    expect(fs.readdirSync(path.join(repo.dir, '.lathe', 'runs', paused.run_id, 'calls')).sort()).toEqual(
      calls.map((_, index) => `${index + 1}.json`).sort(),
    );
  });

  it('ends a wait at a human gate at once, keeping the gate pending for the resume', async () => {
    const { repo, dataDir } = setup();
    const pause = new AbortController();
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      {
        workflow: 'dev-agent',
        model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
        gates: { step: 'human' },
      },
    );
    const never = () => new Promise<GateDecision>(() => {});
    const onEvent = (event: RunLogEvent) => {
      if (event.type === 'gate_pending') pause.abort();
    };
    const paused = await startRun(
      createEngineEnv({
        appRoot: APP_ROOT,
        dataDir,
        retryBackoffMs: 1,
        pause: pause.signal,
        callbacks: { onEvent, decideGate: never },
      }),
      { repoRoot: repo.dir, goal: 'fix median', config },
    );
    expect(paused.status).toBe('paused');
    expect(paused.gate?.kind).toBe('step');
    const approve = async (): Promise<GateDecision> => ({ approved: true, comment: null });
    const resumed = await resumeRun(
      createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, callbacks: { decideGate: approve } }),
      { repoRoot: repo.dir, runId: paused.run_id },
    );
    expect(resumed.result).toMatchObject({ status: 'complete' });
  });
});

describe('Stop (Ctrl-C) at a human gate', () => {
  it('ends the wait for an answer at once, keeping the gate pending for the resume', async () => {
    const { repo, dataDir } = setup();
    const stop = new AbortController();
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      {
        workflow: 'dev-agent',
        model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
        gates: { step: 'human' },
      },
    );
    // A question on the terminal nobody answers: before, a Ctrl-C waited for it forever.
    const never = () => new Promise<GateDecision>(() => {});
    const onEvent = (event: RunLogEvent) => {
      if (event.type === 'gate_pending') stop.abort();
    };
    const stopped = await startRun(
      createEngineEnv({
        appRoot: APP_ROOT,
        dataDir,
        retryBackoffMs: 1,
        signal: stop.signal,
        callbacks: { onEvent, decideGate: never },
      }),
      { repoRoot: repo.dir, goal: 'fix median', config },
    );
    expect(stopped).toMatchObject({ status: 'aborted', result: { exit_code: 1 } });
    expect(stopped.gate?.kind).toBe('step');
    const approve = async (): Promise<GateDecision> => ({ approved: true, comment: null });
    const resumed = await resumeRun(
      createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, callbacks: { decideGate: approve } }),
      { repoRoot: repo.dir, runId: stopped.run_id },
    );
    expect(resumed.result).toMatchObject({ status: 'complete' });
  });
});

describe('the time budget', () => {
  it('does not count the minutes a human gate waits for its decision (fake clock)', async () => {
    const { repo, dataDir } = setup();
    let offset = 0;
    const clock = { now: () => new Date(Date.UTC(2026, 0, 1) + offset) };
    const outputs = [
      entry.planner(TWO_STEPS),
      entry.supervisor(true, 90),
      ...greenStep('T1', STATS.fixed),
      ...greenStep('T2', README, 'README.md'),
      entry.supervisor(true, 95),
    ];
    const config = resolveRunConfig(
      { repoRoot: repo.dir },
      {
        workflow: 'supervised',
        model: writeReplay(dataDir, 'transcript', outputs),
        editFormat: 'whole-file',
        gates: { step: 'both' },
      },
    );
    config.time_limit_ms = 30 * 60_000;
    // Each step gate waits 45 minutes for the person: longer than the whole run's limit.
    const decideGate = async (): Promise<GateDecision> => ((offset += 45 * 60_000), { approved: true, comment: null });
    const state = await startRun(
      createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1, clock, callbacks: { decideGate } }),
      { repoRoot: repo.dir, goal: 'fix median and document it', config },
    );
    expect(state.result).toMatchObject({ status: 'complete', exit_code: 0 });
    expect(offset).toBe(90 * 60_000);
    expect(state.elapsed_ms).toBeLessThan(60_000);
    expect(state.time_spent.execution).toBeLessThan(60_000);
  });
});

function greenStep(taskId: string, content: string, file?: string) {
  return [entry.coder(content, file), entry.tester(taskId), entry.supervisor(true, 90), entry.supervisor(true, 90)];
}
