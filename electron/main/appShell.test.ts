import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BridgeApi } from '../../shared/contract/api';
import type { EventName } from '../../shared/contract/channels';
import type { Result } from '../../shared/result';
import { makeExampleRepo, REPLAYS } from '../../test-support/exampleRepo';
import {
  eventually,
  launchTestApp,
  normaliseAccelerator,
  startMainProcess,
} from '../../test-support/fakeElectron/index';
import { makeTempDir, type TempRepo } from '../../test-support/tempRepo';

const cleanup: (() => void)[] = [];
afterEach(() =>
  cleanup
    .splice(0)
    .reverse()
    .forEach((step) => step()),
);

async function launch(userData?: string) {
  const app = await launchTestApp(userData ? { userData } : {});
  cleanup.push(() => app.close());
  const lathe = app.page.window.lathe as BridgeApi;
  const received: { name: EventName; payload: Record<string, unknown> }[] = [];
  for (const name of ['repo/changed', 'run/status', 'run/event'] as const)
    lathe.events[name]((payload) => received.push({ name, payload: payload as Record<string, unknown> }));
  return { ...app, lathe, received };
}

function exampleRepo(): TempRepo {
  const repo = makeExampleRepo('js-stats');
  cleanup.push(() => repo.remove());
  return repo;
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const gatedRun = (repo: TempRepo) => ({
  repo: repo.dir,
  goal: 'fix median and document it',
  workflow: 'dev-agent' as const,
  model: `replay:${path.join(REPLAYS, 'js-stats.dev-agent.json')}`,
  gates: { step: 'human' as const },
});

describe('the application menu', () => {
  it('opens a folder with Ctrl/Cmd+O: a native folder dialog on the window, then the repository opens in the page', async () => {
    const app = await launch();
    const repo = exampleRepo();
    app.electron.dialogAnswers.push({ canceled: false, filePaths: [repo.dir] });
    expect(app.electron.pressAccelerator(process.platform === 'darwin' ? 'Cmd+O' : 'Ctrl+O')).toBe(true);
    const changed = await eventually(() => app.received.find((frame) => frame.name === 'repo/changed'), 'repo/changed');
    expect(changed.payload.path).toBe(fs.realpathSync(repo.dir));
    expect(app.electron.dialogs).toHaveLength(1);
    expect(app.electron.dialogs[0]?.window).toBe(app.window);
    expect(app.electron.dialogs[0]?.options.properties).toEqual(['openDirectory']);
    expect(unwrap(await app.lathe.requests['repo/recent']({})).repos.map((recent) => recent.path)).toEqual([
      fs.realpathSync(repo.dir),
    ]);

    // Cancelling the dialog opens nothing.
    app.electron.pressAccelerator('CmdOrCtrl+O');
    await eventually(() => app.electron.dialogs.length === 2, 'the second dialog');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(app.received.filter((frame) => frame.name === 'repo/changed')).toHaveLength(1);
    expect(app.electron.errorBoxes).toEqual([]);
  });

  it('says in an error box why a folder picked from the menu cannot be opened, instead of doing nothing', async () => {
    const app = await launch();
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-not-a-repo-'));
    app.electron.dialogAnswers.push({ canceled: false, filePaths: [folder] });
    app.electron.pressAccelerator('CmdOrCtrl+O');
    const [box] = await eventually(
      () => app.electron.errorBoxes.length > 0 && app.electron.errorBoxes,
      'the error box',
    );
    expect(box?.content).toContain('not inside a git repository');
    expect(app.received.filter((frame) => frame.name === 'repo/changed')).toHaveLength(0);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers dialog/openFolder from the page with the folder the user picked, or null', async () => {
    const app = await launch();
    app.electron.dialogAnswers.push({ canceled: false, filePaths: ['/picked/folder'] });
    expect(unwrap(await app.lathe.requests['dialog/openFolder']({}))).toEqual({ path: '/picked/folder' });
    expect(unwrap(await app.lathe.requests['dialog/openFolder']({}))).toEqual({ path: null });
    expect(app.electron.dialogs.map((dialog) => dialog.window)).toEqual([app.window, app.window]);
  });

  it('binds each accelerator once, and the usual ones do what they say', async () => {
    const app = await launch();
    const items = app.electron.applicationMenu?.flatten() ?? [];
    const accelerators = items.flatMap(({ item }) =>
      item.accelerator ? [normaliseAccelerator(item.accelerator, process.platform)] : [],
    );
    expect(new Set(accelerators).size).toBe(accelerators.length);
    expect(items.map(({ path: labels }) => labels.join(' > '))).toEqual(
      expect.arrayContaining(['File > Open Folder…', 'Help > About Lathe']),
    );

    app.electron.clickMenu('Help', 'About Lathe');
    expect(app.electron.app.aboutPanelShown).toBe(1);
    app.electron.pressAccelerator('CmdOrCtrl+R');
    await eventually(
      () => app.window.webContents.page !== app.page && app.window.webContents.page,
      'the reloaded page',
    );
    await app.window.webContents.whenLoaded();
    expect(app.window.webContents.page?.exposedKeys).toEqual(['lathe']);
    if (process.platform !== 'darwin') {
      app.electron.pressAccelerator('Ctrl+Q');
      expect(app.electron.app.exited).toEqual({ code: 0, via: 'quit' });
    }
  });
});

describe('gates and notifications', () => {
  it('notifies the user when a run waits at a gate while the window is in the background; a click brings the window back', async () => {
    const app = await launch();
    const repo = exampleRepo();
    app.window.minimize();
    const { runId } = unwrap(await app.lathe.requests['run/start'](gatedRun(repo)));
    cleanup.unshift(() => void app.lathe.requests['run/cancel']({ repo: repo.dir, runId }));
    await eventually(
      () => app.received.find((frame) => frame.name === 'run/status' && frame.payload.status === 'waiting_for_gate'),
      'the gate',
      60_000,
    );
    const shown = await eventually(() => app.electron.notifications[0], 'a notification');
    expect(shown.options.title).toMatch(/gate/i);
    shown.notification.emit('click', { preventDefault() {} });
    expect(app.window.isMinimized()).toBe(false);
    expect(app.window.isFocused()).toBe(true);
    await app.lathe.requests['run/cancel']({ repo: repo.dir, runId });
  }, 90_000);

  it('does not notify while the window has the focus', async () => {
    const app = await launch();
    const repo = exampleRepo();
    expect(app.window.isFocused()).toBe(true);
    const { runId } = unwrap(await app.lathe.requests['run/start'](gatedRun(repo)));
    await eventually(
      () => app.received.find((frame) => frame.name === 'run/status' && frame.payload.status === 'waiting_for_gate'),
      'the gate',
      60_000,
    );
    await app.lathe.requests['run/cancel']({ repo: repo.dir, runId });
    expect(app.electron.notifications).toEqual([]);
  }, 90_000);
});

describe('quitting and starting again', () => {
  it('quitting with a run at a gate stops it cleanly before the process exits, and the next launch carries it on', async () => {
    const userData = makeTempDir('lathe-electron-data-');
    cleanup.push(() => fs.rmSync(userData, { recursive: true, force: true }));
    const repo = exampleRepo();
    const first = await launch(userData);
    const { runId } = unwrap(await first.lathe.requests['run/start'](gatedRun(repo)));
    const pending = await eventually(
      () => first.received.find((frame) => frame.name === 'run/event' && frame.payload.type === 'gate_pending'),
      'the gate',
      60_000,
    );

    const stateFile = path.join(repo.dir, '.lathe', 'runs', runId, 'state.json');
    let atExit: { status: string } | null = null;
    first.electron.app.on(
      'quit',
      () => (atExit = JSON.parse(fs.readFileSync(stateFile, 'utf8')) as { status: string }),
    );
    first.electron.app.quit();
    await eventually(() => first.electron.app.exited, 'the app to exit', 30_000);
    // What is on disk when the process ends is a clean, resumable stop, not a run cut off mid-write.
    expect(atExit).toMatchObject({ status: 'aborted', result: { reason: 'interrupted by the user; resumable' } });
    const log = fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl'), 'utf8');
    expect(log).toContain('"type":"run_stopped"');

    const second = await launch(userData);
    const decided = unwrap(
      await second.lathe.requests['gate/decide']({
        repo: repo.dir,
        runId,
        gateId: String((pending.payload.data as { gate_id: string }).gate_id),
        approved: true,
      }),
    );
    expect(decided).toEqual({ accepted: true, resumed: true });
    await eventually(
      () =>
        second.received.find(
          (frame) => frame.name === 'run/status' && frame.payload.run_id === runId && frame.payload.active === false,
        ),
      'the resumed run to stop again',
      60_000,
    );
    expect(
      unwrap(await second.lathe.requests['run/get']({ repo: repo.dir, runId })).events.some(
        (event) => event.type === 'run_resumed',
      ),
    ).toBe(true);
    await second.lathe.requests['run/cancel']({ repo: repo.dir, runId });
  }, 120_000);

  it('quits at once when no run is going on', async () => {
    const app = await launch();
    app.electron.app.quit();
    expect(app.electron.app.exited).toEqual({ code: 0, via: 'quit' });
  });

  it('closing the last window quits the app (Linux, Windows)', async () => {
    if (process.platform === 'darwin') return;
    const app = await launch();
    app.window.close();
    expect(app.electron.windows).toEqual([]);
    await eventually(() => app.electron.app.exited, 'the app to exit');
  });

  it('a second launch brings the running window to the front; a launch while another instance runs quits without a window', async () => {
    const app = await launch();
    app.window.minimize();
    app.electron.secondInstance(['lathe']);
    expect(app.window.isMinimized()).toBe(false);
    expect(app.window.isFocused()).toBe(true);

    const other = await startMainProcess({ userData: makeTempDir('lathe-electron-data-'), otherInstanceRunning: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(other.app.exited).toEqual({ code: 0, via: 'quit' });
    expect(other.windows).toEqual([]);
  });
});
