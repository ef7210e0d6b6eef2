import { afterEach, describe, expect, it } from 'vitest';
import { LatheError } from '../../../shared/errors';
import type { RunSummary } from '../../../shared/schemas/run';
import { SettingsSchema } from '../../../shared/schemas/settings';
import { installFakeClient, settle } from '../testing/fakeClient';
import { initialDiffState, useDiffStore } from './diffStore';
import { useGateAlertStore } from './gateAlertStore';
import { initialHistoryState, useHistoryStore } from './historyStore';
import { initialLiveState, useLiveStore } from './liveStore';
import { useModelsStore, usableModels } from './modelsStore';
import { useRepoStore } from './repoStore';
import { useSettingsStore } from './settingsStore';
import { initialUiState, useUiStore } from './uiStore';

const REPO = '/home/user/js-stats';
const RUN = '20261122T033735Z';
const summary = (runId: string, change: Partial<RunSummary> = {}): RunSummary => ({
  runId,
  goal: 'fix median',
  workflow: 'supervised',
  status: 'complete',
  branch: `lathe/${runId}`,
  startedAt: '2026-11-22T03:37:35.000Z',
  updatedAt: '2026-11-22T03:37:36.000Z',
  durationMs: 6800,
  commits: 3,
  closed: null,
  resumable: false,
  followUpOf: null,
  ...change,
});

afterEach(() => {
  for (const store of [
    useDiffStore,
    useGateAlertStore,
    useHistoryStore,
    useLiveStore,
    useModelsStore,
    useRepoStore,
    useSettingsStore,
    useUiStore,
  ])
    store.getState().reset();
});

describe('liveStore', () => {
  it('streams tokens per role for the followed run only, and a new call starts a fresh stream', () => {
    const live = useLiveStore.getState();
    live.follow(RUN);
    live.receive(RUN, { type: 'token', role: 'coder', text: '{"edits":' }, 1000);
    live.receive(RUN, { type: 'token', role: 'coder', text: ' []}' }, 1500);
    live.receive('20991231T000000Z', { type: 'token', role: 'coder', text: 'other run' }, 1600);
    expect(useLiveStore.getState().streams.coder).toBe('{"edits": []}');
    expect(useLiveStore.getState().rates.coder).toBeGreaterThan(0);
    live.startCall('coder');
    expect(useLiveStore.getState().streams.coder).toBeUndefined();
  });

  it('takes what the core streamed before this window followed, replacing its own copy, for the followed run only', () => {
    const live = useLiveStore.getState();
    live.follow(RUN);
    live.receive(RUN, { type: 'token', role: 'coder', text: 'iff":"---' });
    live.seed('20991231T000000Z', { coder: 'other run' });
    expect(useLiveStore.getState().streams.coder).toBe('iff":"---');
    live.seed(RUN, { coder: '{"diff":"---', tester: '{"fix' });
    expect(useLiveStore.getState().streams).toEqual({ coder: '{"diff":"---', tester: '{"fix' });
    live.receive(RUN, { type: 'token', role: 'coder', text: ' a/' });
    expect(useLiveStore.getState().streams.coder).toBe('{"diff":"--- a/');
  });

  it('keeps only the tail of a long stream', () => {
    const live = useLiveStore.getState();
    live.follow(RUN);
    for (let index = 0; index < 1000; index += 1)
      live.receive(RUN, { type: 'token', role: 'planner', text: `${index % 10}`.repeat(10) });
    expect(useLiveStore.getState().streams.planner).toHaveLength(6000);
    expect(useLiveStore.getState().streams.planner?.endsWith('9999999999')).toBe(true);
  });

  it('shows model loading, then the load time', () => {
    const live = useLiveStore.getState();
    live.follow(RUN);
    live.receive(RUN, { type: 'model_load_progress', model: 'qwen.gguf', progress: 0.42 });
    expect(useLiveStore.getState().modelLoad).toEqual({ model: 'qwen.gguf', progress: 0.42, loadMs: null });
    live.receive(RUN, { type: 'model_loaded', model: 'qwen.gguf', loadMs: 900 });
    expect(useLiveStore.getState().modelLoad).toEqual({ model: 'qwen.gguf', progress: 1, loadMs: 900 });
    live.reset();
    expect(useLiveStore.getState()).toMatchObject(initialLiveState);
  });
});

describe('historyStore', () => {
  it('lists the runs, undoes one (reloading the list, which brings its closure) and marks runs whose branch is gone without a recorded undo', async () => {
    let runs = [
      summary(RUN),
      summary('20261121T100000Z'),
      summary('20261120T100000Z', {
        closed: { action: 'undone', at: 't', seq: 9, into: null, commit: 'b' },
        branch: null,
      }),
    ];
    const fake = installFakeClient({
      'runs/list': () => ({ runs }),
      'run/undo': () => {
        runs = runs.map((run) =>
          run.runId === RUN
            ? { ...run, branch: null, closed: { action: 'undone', at: 't2', seq: 12, into: null, commit: 'b' } }
            : run,
        );
        return { undone: true };
      },
      'run/commits': ({ runId }) => {
        if (runId === '20261121T100000Z')
          throw new LatheError('GIT_RUN_BRANCH_MISSING', 'the run branch no longer exists');
        return { commits: [] };
      },
    });
    await useHistoryStore.getState().load(REPO);
    expect(useHistoryStore.getState().runs).toEqual(runs);
    await useHistoryStore.getState().checkBranches();
    expect(useHistoryStore.getState().branchGone).toEqual({ '20261121T100000Z': true });
    // A run whose undo is recorded is never asked about its branch.
    expect(
      fake.calls.filter((call) => call.channel === 'run/commits').map((call) => (call.req as { runId: string }).runId),
    ).toEqual([RUN, '20261121T100000Z']);

    const message = await useHistoryStore.getState().undo(RUN);
    expect(message).toContain(`Run ${RUN} undone`);
    await settle();
    expect(useHistoryStore.getState().runs.find((run) => run.runId === RUN)?.closed?.action).toBe('undone');
    expect(useHistoryStore.getState().busy).toEqual({});
    expect(fake.calls.filter((call) => call.channel === 'runs/list').length).toBeGreaterThanOrEqual(2);
    useHistoryStore.getState().reset();
    expect(useHistoryStore.getState()).toMatchObject(initialHistoryState);
  });

  it('passes an operation failure to the caller and clears the busy mark', async () => {
    installFakeClient({
      'runs/list': () => ({ runs: [summary(RUN)] }),
      'run/merge': () => {
        throw new LatheError('RUN_ACTIVE', 'still running');
      },
    });
    await useHistoryStore.getState().load(REPO);
    await expect(useHistoryStore.getState().merge(RUN)).rejects.toThrow('still running');
    expect(useHistoryStore.getState().busy).toEqual({});
  });
});

describe('settingsStore', () => {
  it('refuses an invalid patch before sending it, naming the field', async () => {
    const fake = installFakeClient({ 'settings/set': (patch) => SettingsSchema.parse(patch) });
    expect(await useSettingsStore.getState().save({ threads: 0 })).toBe(false);
    expect(useSettingsStore.getState().fieldErrors.threads).toBeTruthy();
    expect(fake.calls).toEqual([]);
  });

  it('saves a valid patch and keeps what the core returns', async () => {
    installFakeClient({ 'settings/set': (patch) => SettingsSchema.parse({ ...patch, recentRepos: [] }) });
    expect(await useSettingsStore.getState().save({ threads: 2, theme: 'dark', modelFolders: ['/models'] })).toBe(true);
    expect(useSettingsStore.getState().settings).toMatchObject({
      threads: 2,
      theme: 'dark',
      modelFolders: ['/models'],
    });
    expect(useSettingsStore.getState().fieldErrors).toEqual({});
  });

  it('keeps the set-aside settings file apart from the settings, and drops it once settings are saved', async () => {
    const setAside = {
      file: '/data/settings.json',
      movedTo: '/data/settings.json.invalid-1',
      reason: 'not JSON: Unexpected token',
    };
    installFakeClient({
      'settings/get': () => ({ ...SettingsSchema.parse({}), setAside }),
      'settings/set': (patch) => SettingsSchema.parse(patch),
    });
    await useSettingsStore.getState().load();
    expect(useSettingsStore.getState().setAside).toEqual(setAside);
    expect(useSettingsStore.getState().settings).not.toHaveProperty('setAside');
    expect(await useSettingsStore.getState().save({ theme: 'dark' })).toBe(true);
    expect(useSettingsStore.getState().setAside).toBeNull();
  });
});

describe('diffStore', () => {
  const base = 'a'.repeat(40);
  const shas = ['1', '2', '3'].map((digit) => digit.repeat(40));
  const commits = shas.map((sha, index) => ({
    sha,
    subject: `step ${index + 1}`,
    taskId: 'T1',
    files: [{ path: 'src/a.js', added: 9, removed: 8 }],
  }));

  function fakeGit() {
    return installFakeClient({
      'run/commits': () => ({ commits }),
      'run/diff': ({ from, to }) => ({
        base: from ?? base,
        head: to ?? shas[2] ?? '',
        files: [
          {
            path: 'src/a.js',
            before: 'a\nb\n',
            after: 'a\nc\nd\n',
            added: 2,
            removed: 1,
            changes: [{ beforeStart: 2, beforeLines: 1, afterStart: 2, afterLines: 2 }],
          },
        ],
      }),
    });
  }

  it('diffs all changes from the base, with the core’s line counts', async () => {
    const fake = fakeGit();
    await useDiffStore.getState().load(REPO, RUN, 'all');
    expect(fake.calls.find((call) => call.channel === 'run/diff')?.req).toEqual({ repo: REPO, runId: RUN });
    expect(useDiffStore.getState().files[0]).toMatchObject({ path: 'src/a.js', added: 2, removed: 1 });
    expect(useDiffStore.getState().base).toBe(base);
  });

  it('diffs one edit set from its parent commit (the base for the first), with the diff’s own counts, as the gate card counts (issue 29)', async () => {
    const fake = fakeGit();
    await useDiffStore.getState().load(REPO, RUN, shas[1] ?? '');
    expect(fake.calls.at(-1)?.req).toEqual({ repo: REPO, runId: RUN, from: shas[0], to: shas[1] });
    // Not git's numstat of the commit (9/8 here): the one line diff the gate card's counts come from too.
    expect(useDiffStore.getState().files[0]).toMatchObject({ added: 2, removed: 1 });
    await useDiffStore.getState().load(REPO, RUN, shas[0] ?? '');
    expect(fake.calls.at(-1)?.req).toEqual({ repo: REPO, runId: RUN, to: shas[0] });
    await useDiffStore.getState().load(REPO, RUN, 'f'.repeat(40));
    expect(useDiffStore.getState().range).toBe('all');
    useDiffStore.getState().reset();
    expect(useDiffStore.getState()).toMatchObject(initialDiffState);
  });
});

describe('repo, models, gate alerts and ui stores', () => {
  it('opens a repository, or reports why not', async () => {
    const status = {
      path: REPO,
      name: 'js-stats',
      branch: 'main',
      head: null,
      dirty: false,
      changedFiles: [],
      changedCount: 0,
      testCommand: ['node', '--test'],
      testCommandReason: null,
    };
    installFakeClient({
      'repo/open': ({ path }) => {
        if (path !== REPO) throw new LatheError('NOT_A_REPO', `${path} is not inside a git repository`);
        return status;
      },
      'repo/recent': () => ({ repos: [{ path: REPO, name: 'js-stats', openedAt: '2026-11-22T03:37:35.000Z' }] }),
    });
    expect(await useRepoStore.getState().open('/')).toBeNull();
    expect(useRepoStore.getState().error).toContain('not inside a git repository');
    expect(await useRepoStore.getState().open(REPO)).toEqual(status);
    await settle();
    expect(useRepoStore.getState()).toMatchObject({ status, error: null, loading: false });
    expect(useRepoStore.getState().recent).toHaveLength(1);
  });

  it('lists usable models apart from rejected files', async () => {
    const model = {
      path: '/m/a.gguf',
      fileName: 'a.gguf',
      status: 'ok' as const,
      reason: null,
      sizeBytes: 1,
      name: 'a',
      architecture: 'llama',
      parameters: 1,
      quantization: 'Q4_K_M',
      contextLength: 4096,
      chatTemplate: null,
      fitsInMemory: true,
    };
    installFakeClient({
      'models/list': () => ({
        folders: ['/m'],
        models: [model, { ...model, path: '/m/b.gguf', status: 'rejected', reason: 'truncated' }],
      }),
    });
    await useModelsStore.getState().load();
    expect(useModelsStore.getState().folders).toEqual(['/m']);
    expect(usableModels(useModelsStore.getState().models).map((entry) => entry.path)).toEqual(['/m/a.gguf']);
  });

  it('counts runs waiting at a gate', () => {
    const alerts = useGateAlertStore.getState();
    alerts.setWaiting(RUN, REPO, true);
    alerts.setWaiting('20261121T100000Z', REPO, true);
    alerts.setWaiting(RUN, REPO, false);
    expect(Object.keys(useGateAlertStore.getState().waiting)).toEqual(['20261121T100000Z']);
  });

  it('navigates: leaving a run resets its tab and diff selection', () => {
    const ui = useUiStore.getState();
    ui.navigate({ view: 'run', repo: REPO, run: RUN, tab: 'changes', range: 'all', file: 'src/a.js' });
    ui.navigate({ run: '20261121T100000Z' });
    expect(useUiStore.getState().route).toEqual({
      view: 'run',
      repo: REPO,
      run: '20261121T100000Z',
      tab: 'activity',
      range: 'all',
      file: null,
      followUp: null,
    });
    // History's Follow up opens the New run form with its run; going anywhere else lets it go.
    ui.navigate({ view: 'start', followUp: RUN });
    expect(useUiStore.getState().route.followUp).toBe(RUN);
    ui.navigate({ view: 'history' });
    expect(useUiStore.getState().route.followUp).toBeNull();
    ui.notify('error', 'one');
    ui.notify('ok', 'two');
    ui.notify('ok', 'three');
    ui.notify('ok', 'four');
    expect(useUiStore.getState().notices.map((notice) => notice.text)).toEqual(['two', 'three', 'four']);
    ui.reset();
    expect(useUiStore.getState()).toMatchObject(initialUiState);
  });
});
