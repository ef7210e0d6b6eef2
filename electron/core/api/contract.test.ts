import { describe, expect, expectTypeOf, it } from 'vitest';
import { dispatch } from './dispatch';
import { EventBus } from '../runs/eventBus';
import { createCore } from './coreHandlers';
import path from 'node:path';
import { makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import { makeTempDir } from '../../../test-support/tempRepo';
import { RunPageSchema } from '../../../shared/contract/runRequests';
import {
  createEventSubscribers,
  createRequestFunctions,
  type BridgeApi,
  type CoreHandlers,
  type Handlers,
} from '../../../shared/contract/api';
import {
  eventNames,
  requestChannelNames,
  requestChannels,
  shellChannels,
  type CoreChannel,
  type RequestChannel,
} from '../../../shared/contract/channels';

const coreHandlers = () =>
  createCore({ mode: 'browser', dataDir: makeTempDir(), events: new EventBus(), appRoot: process.cwd() }).handlers;
const handlers = (): Handlers => ({
  ...coreHandlers(),
  'dialog/openFolder': async () => ({ path: null }),
});

describe('contract completeness (compile time)', () => {
  it('has a bridge function for every request channel and event', () => {
    expectTypeOf<keyof BridgeApi['requests']>().toEqualTypeOf<RequestChannel>();
    expectTypeOf<keyof CoreHandlers>().toEqualTypeOf<CoreChannel>();
    expectTypeOf<keyof Handlers>().toEqualTypeOf<RequestChannel>();
  });

  it('rejects a handler map that misses a channel', () => {
    const { 'app/info': _dropped, ...partial } = coreHandlers();
    // @ts-expect-error: 'app/info' is missing, so this is not a complete CoreHandlers map.
    const incomplete: CoreHandlers = partial;
    expect(Object.keys(incomplete)).not.toContain('app/info');
  });

  it('types each request and response from the map', () => {
    expectTypeOf<Parameters<Handlers['repo/open']>[0]>().toEqualTypeOf<{ path: string }>();
    expectTypeOf<ReturnType<BridgeApi['requests']['app/info']>>().resolves.toHaveProperty('ok');
  });
});

describe('contract completeness (run time)', () => {
  it('builds one named bridge function per channel and per event', () => {
    const requests = createRequestFunctions(async () => ({ ok: true, value: null }), requestChannelNames);
    const events = createEventSubscribers(() => () => {}, eventNames);
    expect(Object.keys(requests).sort()).toEqual([...requestChannelNames].sort());
    expect(Object.keys(events).sort()).toEqual([...eventNames].sort());
    for (const fn of [...Object.values(requests), ...Object.values(events)]) expect(typeof fn).toBe('function');
  });

  it('the core answers every channel but the shell ones', () => {
    const core = Object.keys(coreHandlers()).sort();
    const expected = requestChannelNames.filter((name) => !(shellChannels as readonly string[]).includes(name)).sort();
    expect(core).toEqual(expected);
  });
});

describe('dispatch validates payloads at the boundary', () => {
  it('answers a valid request', async () => {
    const result = await dispatch(handlers(), 'app/info', {});
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.value).toMatchObject({ name: 'Lathe', mode: 'browser' });
  });

  it.each([
    ['a missing field', 'repo/open', {}],
    ['a wrong type', 'repo/open', { path: 42 }],
    ['an empty path', 'repo/open', { path: '' }],
    ['a NUL byte', 'repo/open', { path: 'a\0b' }],
    ['an oversized string', 'repo/open', { path: 'x'.repeat(5000) }],
    ['an unknown key', 'app/info', { extra: true }],
    ['no payload at all', 'runs/list', undefined],
    ['an array', 'runs/list', []],
  ])('rejects %s with INVALID_PAYLOAD', async (_label, channel, payload) => {
    const result = await dispatch(handlers(), channel, payload);
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_PAYLOAD', data: { channel } } });
  });

  it('rejects an unknown or inherited channel name with UNKNOWN_CHANNEL', async () => {
    for (const channel of ['nope/nothing', '__proto__', 'constructor', 42, null]) {
      const result = await dispatch(handlers(), channel, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    }
  });

  it('turns a thrown error into a typed result', async () => {
    const result = await dispatch(handlers(), 'repo/open', { path: '/definitely/not/here' });
    expect(result).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('refuses a handler response that breaks the contract', async () => {
    const broken = { ...handlers(), 'dialog/openFolder': async () => ({ path: 7 }) } as unknown as Handlers;
    const result = await dispatch(broken, 'dialog/openFolder', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('lets only run/get skip the response check, and its handler answers what the contract accepts', async () => {
    const unchecked = requestChannelNames.filter((channel) => 'responseCheckedByHandler' in requestChannels[channel]);
    expect(unchecked).toEqual(['run/get']);
    const repo = makeExampleRepo('js-stats');
    try {
      const core = handlers();
      const started = await dispatch(core, 'run/start', {
        repo: repo.dir,
        goal: 'fix median',
        workflow: 'minimal',
        model: `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`,
      });
      if (!started.ok) throw new Error(started.error.message);
      const { runId } = started.value as { runId: string };
      for (let polls = 0; polls < 600; polls += 1) {
        const result = await dispatch(core, 'run/get', { repo: repo.dir, runId });
        if (!result.ok) throw new Error(result.error.message);
        const page = RunPageSchema.parse(result.value);
        if (!page.active && page.state.phase === 'finished') return expect(page.state.status).toBe('complete');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the run did not finish');
    } finally {
      repo.remove();
    }
  }, 60_000);
});
