import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeApi } from '../../shared/contract/api';
import { eventNames, requestChannelNames, type EventName } from '../../shared/contract/channels';
import { ELECTRON_EVENT_CHANNEL } from '../../shared/contract/wire';
import type { Result } from '../../shared/result';
import { makeExampleRepo, REPLAYS } from '../../test-support/exampleRepo';
import { eventually, launchTestApp } from '../../test-support/fakeElectron/index';
import { makeTempDir, type TempRepo } from '../../test-support/tempRepo';

let app: Awaited<ReturnType<typeof launchTestApp>>;
let lathe: BridgeApi;
let repo: TempRepo;

beforeAll(async () => {
  app = await launchTestApp();
  lathe = app.page.window.lathe as BridgeApi;
  repo = makeExampleRepo('js-stats');
});

afterAll(() => {
  app?.close();
  repo?.remove();
});

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

type Frame = { name: EventName; payload: Record<string, unknown> };

describe('the preload bridge, as the page sees it', () => {
  it('puts one object on window, with exactly one function per contract channel and per event', () => {
    expect(app.page.exposedKeys).toEqual(['lathe']);
    expect(Object.keys(lathe).sort()).toEqual(['events', 'requests']);
    expect(Object.keys(lathe.requests).sort()).toEqual([...requestChannelNames].sort());
    expect(Object.keys(lathe.events).sort()).toEqual([...eventNames].sort());
    for (const fn of [...Object.values(lathe.requests), ...Object.values(lathe.events)])
      expect(typeof fn).toBe('function');
    // The bridge copied and froze it: the page can neither replace nor extend it.
    expect(Object.isFrozen(lathe) && Object.isFrozen(lathe.requests) && Object.isFrozen(lathe.events)).toBe(true);
    expect(() => app.page.evaluate("'use strict'; window.lathe = {}")).toThrow();
    expect(app.page.evaluate('typeof require + typeof process + typeof module')).toBe('undefinedundefinedundefined');
  });

  it('registers one ipcMain handler per contract channel and nothing else', () => {
    expect([...app.electron.ipcMain.invokeHandlers.keys()].sort()).toEqual([...requestChannelNames].sort());
  });

  it.each(requestChannelNames)('%s: the handler validates its payload before the core sees it', async (channel) => {
    const call = lathe.requests[channel] as (payload: unknown) => Promise<Result<unknown>>;
    const result = await call('not an object');
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD', data: { channel } } });
  });

  it('answers every channel through the core, in the shape the contract gives', async () => {
    const info = unwrap(await lathe.requests['app/info']({}));
    expect(info).toMatchObject({ name: 'Lathe', mode: 'electron', dataDir: app.userData });
    expect(unwrap(await lathe.requests['settings/get']({}))).toHaveProperty('recentRepos');
    const missing = await lathe.requests['repo/status']({ path: path.join(app.userData, 'nowhere') });
    expect(missing.ok).toBe(false);
  });

  it('refuses requests from any document but the app page, even one the preload runs in', async () => {
    const other = path.join(makeTempDir('lathe-other-page-'), 'other.html');
    fs.writeFileSync(other, '<!doctype html><title>other</title>');
    const second = await launchTestApp();
    try {
      await second.window.webContents.loadURL(pathToFileURL(other).href);
      const foreign = second.window.webContents.page?.window.lathe as BridgeApi;
      expect(await foreign.requests['settings/get']({})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    } finally {
      second.close();
      fs.rmSync(path.dirname(other), { recursive: true, force: true });
    }
  });
});

describe('a run through the desktop shell', () => {
  it('repo/open → run/start with a replay model: every event reaches the page through webContents.send, in order', async () => {
    const received: Frame[] = [];
    for (const name of eventNames)
      lathe.events[name]((payload) => received.push({ name, payload: payload as Record<string, unknown> }));

    const opened = unwrap(await lathe.requests['repo/open']({ path: repo.dir }));
    expect(opened.path).toBe(fs.realpathSync(repo.dir));
    await eventually(() => received.find((frame) => frame.name === 'repo/changed'), 'repo/changed');

    const model = `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`;
    const { runId } = unwrap(
      await lathe.requests['run/start']({
        repo: repo.dir,
        goal: 'make the failing median test pass',
        workflow: 'minimal',
        model,
      }),
    );
    const done = await eventually(
      () => received.find((frame) => frame.name === 'run/status' && frame.payload.active === false),
      'the run to finish',
      60_000,
    );
    expect(done.payload).toMatchObject({ run_id: runId, status: 'complete' });

    // What the main process sent is what the page received, frame for frame and in the same order.
    const sent = app.window.webContents.sent
      .filter((message) => message.channel === ELECTRON_EVENT_CHANNEL)
      .map((message) => message.args[0] as Frame);
    await eventually(() => received.length >= sent.length, 'every sent frame to arrive');
    expect(received).toEqual(sent);

    // The log events arrive once each, in log order, and are the run's whole log.
    const logged = fs
      .readFileSync(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { seq: number });
    const seqs = received.filter((frame) => frame.name === 'run/event').map((frame) => frame.payload.seq);
    expect(seqs).toEqual(logged.map((event) => event.seq));
    const statuses = received
      .filter((frame) => frame.name === 'run/status' && frame.payload.run_id === runId)
      .map((frame) => frame.payload.status);
    expect(statuses).toEqual(['running', 'complete']);

    const page = unwrap(await lathe.requests['run/get']({ repo: repo.dir, runId }));
    expect(page.state.status).toBe('complete');
    expect(page.events.map((event) => event.seq)).toEqual(seqs);
  }, 90_000);
});
