import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';
import { APP_ROOT, makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createEngineEnv } from './defaultDeps';
import { startRun } from './runner';
import { hashGoal, newRunId, readLog, RunStore, runDir } from './runStore';

let repo: TempRepo;
afterEach(() => repo?.remove());

const state = (runId: string) =>
  initialState({
    runId,
    goal: 'g',
    goalHash: hashGoal('g'),
    config: configFromWorkflow(WORKFLOWS.minimal),
    now: 'now',
    nowMs: 0,
  });

describe('RunStore', () => {
  // docs/seeds.md 3.17: run_id = the UTC timestamp
  it('names runs by UTC timestamp and never reuses a folder', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    const at = new Date('2026-11-22T10:15:00.123Z');
    expect(newRunId(repo.dir, at)).toBe('20261122T101500Z');
    RunStore.create(repo.dir, '20261122T101500Z');
    expect(newRunId(repo.dir, at)).toBe('20261122T101500Z-2');
  });

  // docs/seeds.md 0.3 (snake_case log keys), 0.8 (append-only log, one folder per run), 3.12
  it('appends one JSON event per line with strictly increasing seq, and continues the seq on reopen', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    const store = RunStore.create(repo.dir, 'r1');
    store.append({ role: 'engine', type: 'replan_requested', data: { reason: 'one' } });
    store.append({ role: 'planner', type: 'plan_invalid', data: { reason: 'two' } });
    store.saveState({ ...state('r1'), log_seq: 2 });
    const { store: reopened, events } = RunStore.open(repo.dir, 'r1');
    reopened.append({ role: 'engine', type: 'replan_requested', data: { reason: 'three' } });
    const log = readLog(path.join(runDir(repo.dir, 'r1'), 'log.jsonl'));
    expect(events.map((event) => event.seq)).toEqual([1, 2]);
    expect(log.map((event) => [event.seq, event.type, event.run_id])).toEqual([
      [1, 'replan_requested', 'r1'],
      [2, 'plan_invalid', 'r1'],
      [3, 'replan_requested', 'r1'],
    ]);
    expect(Object.keys(log[0] ?? {})).toEqual(['ts', 'seq', 'run_id', 'role', 'type', 'data']);
    // Seed 003's logger (3.12): one JSON-lines file per run, timestamps UTC ISO-8601.
    for (const event of log) expect(event.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(fs.readdirSync(runDir(repo.dir, 'r1')).filter((name) => name.endsWith('.jsonl'))).toEqual(['log.jsonl']);
  });

  it('flushes state.json to the disk where the run stops or waits, not after every transition', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    const store = RunStore.create(repo.dir, 'r1');
    const fsync = vi.spyOn(fs, 'fsyncSync');
    try {
      store.saveState({ ...state('r1'), status: 'running' });
      expect(fsync).not.toHaveBeenCalled();
      store.saveState({ ...state('r1'), status: 'waiting_for_gate' });
      expect(fsync).toHaveBeenCalledTimes(1);
      store.saveState({ ...state('r1'), status: 'complete' });
      expect(fsync).toHaveBeenCalledTimes(2);
    } finally {
      fsync.mockRestore();
    }
    // Either way the file is replaced whole, never left as a temp file.
    expect(fs.readdirSync(runDir(repo.dir, 'r1')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(RunStore.readState(repo.dir, 'r1').status).toBe('complete');
  });

  it('cuts a torn last line (a kill mid-write) so every line parses', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    const store = RunStore.create(repo.dir, 'r1');
    store.append({ role: 'engine', type: 'replan_requested', data: { reason: 'one' } });
    store.saveState(state('r1'));
    fs.appendFileSync(path.join(store.dir, 'log.jsonl'), '{"ts":"x","seq":2,"run_');
    const { store: reopened } = RunStore.open(repo.dir, 'r1');
    expect(reopened.lastSeq).toBe(1);
    reopened.append({ role: 'engine', type: 'replan_requested', data: { reason: 'two' } });
    expect(readLog(path.join(store.dir, 'log.jsonl')).map((event) => event.seq)).toEqual([1, 2]);
  });

  it('writes state.json atomically and leaves no temp file', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    const store = RunStore.create(repo.dir, 'r1');
    store.saveState(state('r1'));
    store.saveState({ ...state('r1'), phase: 'planning' });
    expect(fs.readdirSync(store.dir).sort()).toEqual(['disk-reserve', 'state.json']);
    expect(RunStore.open(repo.dir, 'r1').state.phase).toBe('planning');
  });

  it('keeps the run store out of git through .git/info/exclude, once', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    RunStore.create(repo.dir, 'r1').saveState(state('r1'));
    RunStore.create(repo.dir, 'r2');
    expect(fs.readFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), 'utf8').match(/^\.lathe\/$/gm)).toHaveLength(
      1,
    );
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('refuses a missing run and an unreadable state with typed errors', () => {
    repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
    expect(() => RunStore.open(repo.dir, 'nope')).toThrow(expect.objectContaining({ code: 'RUN_NOT_FOUND' }));
    const store = RunStore.create(repo.dir, 'bad');
    fs.writeFileSync(path.join(store.dir, 'state.json'), JSON.stringify({ run_id: 'bad' }));
    expect(() => RunStore.open(repo.dir, 'bad')).toThrow(expect.objectContaining({ code: 'RUN_STATE_INVALID' }));
  });

  it("holds seed 003's state.json fields after a real retry-loop run (3.10)", async () => {
    repo = makeExampleRepo('js-stats');
    const dataDir = makeTempDir('lathe-state-');
    try {
      const config = resolveRunConfig(
        { repoRoot: repo.dir },
        { workflow: 'retry-loop', model: `replay:${path.join(REPLAYS, 'js-stats.retry-loop.json')}` },
      );
      const env = createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 });
      const finished = await startRun(env, {
        repoRoot: repo.dir,
        goal: 'fix median and document it in README.md',
        config,
      });
      const saved = JSON.parse(
        fs.readFileSync(path.join(runDir(repo.dir, finished.run_id), 'state.json'), 'utf8'),
      ) as RunState;
      // run_id, phase, attempt, max_retries, test_passed, last_test_output, attempt_files, spec_hash, created_at, updated_at
      expect(saved.run_id).toMatch(/^\d{8}T\d{6}Z$/);
      expect(saved.phase).toBe('finished');
      expect(saved.plans[0]?.steps[0]?.attempts).toBe(2);
      expect(saved.config.limits.max_attempts_per_task).toBe(4);
      expect(saved.last_test).toMatchObject({ passed: true, report: expect.stringContaining('pass') });
      expect(saved.proposal_files).toEqual(['README.md', 'src/stats.js']);
      expect(saved.goal_hash).toBe(hashGoal('fix median and document it in README.md'));
      expect(Date.parse(saved.updated_at)).toBeGreaterThanOrEqual(Date.parse(saved.created_at));
      expect(saved.created_at).toMatch(/Z$/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
