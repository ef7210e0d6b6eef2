import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../../../shared/contract/api';
import { RunDiffSchema } from '../../../shared/contract/runRequests';
import { SettingsReadSchema } from '../../../shared/schemas/settings';
import { APP_ROOT, makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { writeJunkGguf, writeTinyModel } from '../../../test-support/gguf/fixtures';
import { makeTempDir, type TempRepo } from '../../../test-support/tempRepo';
import { resolveRunConfig } from '../config/resolveConfig';
import { createEngineEnv } from '../engine/defaultDeps';
import { startRun } from '../engine/runner';
import { runDir } from '../engine/runStore';
import { createCore } from './coreHandlers';
import { dispatch } from './dispatch';
import { EventBus } from '../runs/eventBus';

let dataDir: string;
let handlers: Handlers;
let repo: TempRepo;
let runId: string;
let verifyRunId: string;

beforeAll(async () => {
  dataDir = makeTempDir('lathe-data-');
  handlers = {
    ...createCore({ mode: 'browser', dataDir, events: new EventBus(), appRoot: APP_ROOT }).handlers,
    'dialog/openFolder': async () => ({ path: null }),
  };
  repo = makeExampleRepo('js-stats');
  const config = resolveRunConfig(
    { repoRoot: repo.dir },
    { workflow: 'minimal', model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}` },
  );
  const state = await startRun(createEngineEnv({ appRoot: APP_ROOT, dataDir, retryBackoffMs: 1 }), {
    repoRoot: repo.dir,
    goal: 'fix median',
    config,
  });
  runId = state.run_id;
  verifyRunId = state.last_test?.verify_run_id ?? '';
});
afterAll(() => {
  repo.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const call = async (channel: string, payload: unknown) => dispatch(handlers, channel, payload);
const value = async (channel: string, payload: unknown) => {
  const result = await call(channel, payload);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value as Record<string, unknown>;
};

describe('settings over the contract', () => {
  it('reads defaults, validates and persists changes', async () => {
    expect(await value('settings/get', {})).toMatchObject({
      theme: 'system',
      defaultWorkflow: 'minimal',
      threads: null,
      recentRepos: [],
    });
    expect(await value('settings/set', { theme: 'dark', threads: 2 })).toMatchObject({ theme: 'dark', threads: 2 });
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      theme: 'dark',
      threads: 2,
    });
    expect(await call('settings/set', { theme: 'neon' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PAYLOAD' },
    });
    expect(await call('settings/set', { recentRepos: [] })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PAYLOAD' },
    });
  });

  it('sets a corrupted settings file aside, starts from defaults and says which file it set aside until settings are saved', async () => {
    const file = path.join(dataDir, 'settings.json');
    fs.writeFileSync(file, '{ not json');
    const read = await value('settings/get', {});
    const kept = fs.readdirSync(dataDir).filter((name) => name.startsWith('settings.json.invalid-'));
    expect(kept).toHaveLength(1);
    expect(read).toMatchObject({
      theme: 'system',
      setAside: { file, movedTo: path.join(dataDir, kept[0] ?? ''), reason: expect.stringMatching(/^not JSON: /) },
    });
    expect(SettingsReadSchema.parse(read).setAside?.movedTo).toBe(path.join(dataDir, kept[0] ?? ''));
    // Read again (the file is gone now): still said, the defaults still stand in.
    expect(await value('settings/get', {})).toMatchObject({ setAside: { file } });
    await value('settings/set', { theme: 'light' });
    expect(await value('settings/get', {})).toMatchObject({ theme: 'light', setAside: null });
  });

  it('remembers opened repositories, newest first, with the detected test command', async () => {
    const status = await value('repo/open', { path: repo.dir });
    expect(status).toMatchObject({ testCommand: ['node', '--test'] });
    const { repos } = await value('repo/recent', {});
    expect((repos as { path: string }[])[0]?.path).toBe(repo.dir);
  });
});

describe('models over the contract', () => {
  it('lists the settings folders with usable and rejected files and a memory verdict', async () => {
    const folder = path.join(dataDir, 'models');
    writeTinyModel(folder);
    writeJunkGguf(folder);
    await value('settings/set', { modelFolders: [folder] });
    const { folders, models } = (await value('models/list', {})) as {
      folders: string[];
      models: { fileName: string; status: string; reason: string | null; fitsInMemory: boolean }[];
    };
    expect(folders).toContain(folder);
    const mine = models.filter((model) => model.fileName === 'tiny-llama.gguf' || model.fileName === 'junk.gguf');
    expect(mine.map((model) => [model.fileName, model.status, model.fitsInMemory])).toEqual([
      ['junk.gguf', 'rejected', true],
      ['tiny-llama.gguf', 'ok', true],
    ]);
    expect(mine[0]?.reason).toBeTruthy();
  });
});

describe('run operations over the contract', () => {
  it('lists commits, diffs the run, reads its report and the full Verifier log', async () => {
    const { commits } = (await value('run/commits', { repo: repo.dir, runId })) as { commits: { subject: string }[] };
    expect(commits.map((commit) => commit.subject)).toEqual([
      'lathe(T1): Fix median() to return the middle value',
      'lathe(T2): Document mean() and median() in README.md',
    ]);
    const diff = RunDiffSchema.parse(await value('run/diff', { repo: repo.dir, runId }));
    expect(diff.files.map((file) => file.path).sort()).toEqual(['README.md', 'src/stats.js']);
    const stats = diff.files.find((file) => file.path === 'src/stats.js');
    expect(stats?.before).toContain('return mean(values);');
    // The changed blocks come with the texts and add up to the counts, so the window can draw them at once.
    expect(stats?.changes.length).toBeGreaterThan(0);
    expect(stats?.changes.reduce((sum, change) => sum + change.afterLines, 0)).toBe(stats?.added);
    expect(stats?.changes.reduce((sum, change) => sum + change.beforeLines, 0)).toBe(stats?.removed);
    const firstRemoved = stats?.changes.find((change) => change.beforeLines > 0);
    expect(stats?.before?.split('\n')[(firstRemoved?.beforeStart ?? 0) - 1]).not.toBe(
      stats?.after?.split('\n')[(firstRemoved?.afterStart ?? 0) - 1],
    );
    const report = await value('run/report', { repo: repo.dir, runId });
    expect(report.report).toContain(`Run id: ${runId}`);
    const log = await value('verifier/log', { repo: repo.dir, runId, verifyRunId });
    expect(log.text).toMatch(/pass 3|# pass|✔/);
  });

  it('reads commits, diffs and patches without touching a log a writer may be halfway through', async () => {
    const log = path.join(runDir(repo.dir, runId), 'log.jsonl');
    const whole = fs.readFileSync(log);
    // What a reader sees while the engine is mid-append: a line without its newline yet.
    fs.appendFileSync(log, '{"ts":"2026-11-22T00:00:00.000Z","seq":');
    const midWrite = fs.readFileSync(log);
    try {
      await value('run/commits', { repo: repo.dir, runId });
      await value('run/diff', { repo: repo.dir, runId });
      await value('run/exportPatch', { repo: repo.dir, runId });
      expect(fs.readFileSync(log).equals(midWrite)).toBe(true);
    } finally {
      fs.writeFileSync(log, whole);
    }
  });

  it('refuses Verifier logs outside the run and run ids that are paths', async () => {
    expect(await call('verifier/log', { repo: repo.dir, runId, verifyRunId: '../../etc' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PAYLOAD' },
    });
    expect(await call('verifier/log', { repo: repo.dir, runId, verifyRunId: 'v-not-in-this-run' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_FOUND' },
    });
    expect(await call('run/report', { repo: repo.dir, runId: '../../../etc' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PAYLOAD' },
    });
  });

  it('answers run/call with what an agent call sent and got back, and refuses calls that are not there', async () => {
    const record = await value('run/call', { repo: repo.dir, runId, call: 1 });
    expect(record).toEqual(JSON.parse(fs.readFileSync(path.join(runDir(repo.dir, runId), 'calls', '1.json'), 'utf8')));
    expect(record).toMatchObject({ call: 1, role: 'planner', purpose: 'plan', answer: { outcome: 'output' } });
    expect(await call('run/call', { repo: repo.dir, runId, call: 999 })).toMatchObject({
      ok: false,
      error: { code: 'CALL_NOT_FOUND' },
    });
    for (const bad of [0, -1, 1.5, '1', null])
      expect(await call('run/call', { repo: repo.dir, runId, call: bad })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_PAYLOAD' },
      });
    expect(await call('run/call', { repo: repo.dir, runId: '../../../etc', call: 1 })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_PAYLOAD' },
    });
  });

  it('exports a patch, merges on request, and undo restores the repository', async () => {
    const exported = await value('run/exportPatch', { repo: repo.dir, runId });
    expect(fs.readFileSync(String(exported.file), 'utf8')).toContain('Subject: [PATCH 1/2]');
    // The text too: a window in a browser offers it as a download, as it cannot open the core's file.
    expect(exported.patch).toBe(fs.readFileSync(String(exported.file), 'utf8'));
    const before = repo.git('rev-parse', 'main');
    const merged = await value('run/merge', { repo: repo.dir, runId });
    expect(repo.git('rev-parse', 'main')).toBe(merged.merged);
    expect(repo.git('rev-parse', 'main')).not.toBe(before);
    expect(fs.readFileSync(path.join(repo.dir, 'src', 'stats.js'), 'utf8')).toContain('Math.floor(sorted.length / 2)');
    expect(await value('run/undo', { repo: repo.dir, runId })).toEqual({ undone: true });
    expect(repo.git('rev-parse', 'main')).toBe(before);
    expect(repo.git('status', '--porcelain')).toBe('');
  });
});
