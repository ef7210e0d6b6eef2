import { afterEach, describe, expect, it } from 'vitest';
import type { RunLogEvent } from '../../../shared/schemas/run';
import { recordedLog } from '../runView/fixtures/loadLog';
import { buildRunView } from '../../../shared/runView/reduceRunEvents';
import { installFakeClient, settle } from '../testing/fakeClient';
import { runStateFixture } from '../testing/runStateFixture';
import { useLiveStore } from './liveStore';
import { useRunViewStore } from './runViewStore';

const events = recordedLog('supervised');
const RUN = events[0]?.run_id ?? '';
const REPO = '/home/user/js-stats';

/** A `run/get` over a log held in memory, paged like the core's. */
function pagedLog(log: RunLogEvent[], active = true) {
  return installFakeClient({
    'run/get': ({ afterSeq = 0, limit = 5000 }) => {
      const rest = log.filter((event) => event.seq > afterSeq);
      const page = rest.slice(0, limit);
      return {
        state: runStateFixture(RUN),
        events: page,
        lastSeq: page.at(-1)?.seq ?? afterSeq,
        more: rest.length > page.length,
        active,
        streams: {},
        view: null,
        figures: null,
      };
    },
  });
}

afterEach(() => useRunViewStore.getState().reset());

describe('runViewStore', () => {
  it('starts from its initial state and resets to it', () => {
    useRunViewStore.setState({ runId: 'x', loading: true });
    useRunViewStore.getState().reset();
    expect(useRunViewStore.getState()).toMatchObject({ runId: null, loading: false, events: [], state: null });
  });

  it('opens a run: reads the whole log and reduces it to the view', async () => {
    const client = pagedLog(events);
    await useRunViewStore.getState().open(REPO, RUN);
    const store = useRunViewStore.getState();
    expect(store.loading).toBe(false);
    expect(store.events).toHaveLength(90);
    expect(store.view).toEqual(buildRunView(events, RUN));
    expect(store.active).toBe(true);
    expect(store.state?.config.limits.max_fix_cycles).toBe(3);
    expect(client.calls.filter((call) => call.channel === 'run/get')).toHaveLength(1);
  });

  it('applies live events in order, ignores duplicates and other runs, and fills a gap from the log', async () => {
    const client = pagedLog(events.slice(0, 40));
    await useRunViewStore.getState().open(REPO, RUN);
    const store = useRunViewStore.getState();
    store.receive(events[40] as RunLogEvent);
    store.receive(events[40] as RunLogEvent);
    store.receive({ ...(events[41] as RunLogEvent), run_id: '20991231T000000Z' });
    await settle();
    expect(
      useRunViewStore
        .getState()
        .events.map((event) => event.seq)
        .at(-1),
    ).toBe(41);

    // seq 42-49 were missed (a reconnect); 50 arrives: the store reads 42+ from the log first.
    pagedLog(events.slice(0, 60));
    store.receive(events[49] as RunLogEvent);
    await settle(10);
    const seqs = useRunViewStore.getState().events.map((event) => event.seq);
    expect(seqs).toEqual(events.slice(0, 60).map((event) => event.seq));
    expect(useRunViewStore.getState().view).toEqual(buildRunView(events.slice(0, 60), RUN));
    expect(client.calls.length).toBeGreaterThan(0);
  });

  it('rebuilds the view when a live resume names events it already reduced as orphaned', async () => {
    const beforeCrash = events.filter((event) => event.seq <= 23);
    pagedLog(beforeCrash);
    await useRunViewStore.getState().open(REPO, RUN);
    expect(useRunViewStore.getState().view.tests).toHaveLength(1);
    const resumed: RunLogEvent = {
      ts: '2026-11-22T03:40:00.000Z',
      seq: 24,
      run_id: RUN,
      role: 'engine',
      type: 'run_resumed',
      data: { phase: 'verifying', previous_status: 'running', state_seq: 21, orphaned_events: { from: 22, to: 23 } },
    };
    const redone = beforeCrash.slice(-2).map((event, index) => ({ ...event, seq: 25 + index }));
    for (const event of [resumed, ...redone]) useRunViewStore.getState().receive(event);
    await settle();
    const view = useRunViewStore.getState().view;
    expect(view.tests).toHaveLength(1);
    expect(view.tests[0]?.seq).toBe(26);
    expect(view.needsRebuild).toBe(false);
    expect(view.orphaned).toEqual([{ from: 22, to: 23 }]);
  });

  it('keeps live events that arrive while the log is being read', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    installFakeClient({
      'run/get': async ({ afterSeq = 0 }) => {
        if (afterSeq === 0) await gate;
        const page = events.slice(0, 30).filter((event) => event.seq > afterSeq);
        return {
          state: runStateFixture(RUN),
          events: page,
          lastSeq: page.at(-1)?.seq ?? afterSeq,
          more: false,
          active: true,
          streams: {},
          view: null,
          figures: null,
        };
      },
    });
    const opening = useRunViewStore.getState().open(REPO, RUN);
    useRunViewStore.getState().receive(events[30] as RunLogEvent);
    release();
    await opening;
    await settle();
    expect(useRunViewStore.getState().events.at(-1)?.seq).toBe(31);
  });

  it('hands the streams of calls in progress to the live store with the log', async () => {
    installFakeClient({
      'run/get': () => ({
        state: runStateFixture(RUN),
        events: events.slice(0, 10),
        lastSeq: 10,
        more: false,
        active: true,
        streams: { coder: '{"diff":"--- a/src' },
        view: null,
        figures: null,
      }),
    });
    useLiveStore.getState().follow(RUN);
    await useRunViewStore.getState().open(REPO, RUN);
    expect(useLiveStore.getState().streams).toEqual({ coder: '{"diff":"--- a/src' });
    useLiveStore.getState().reset();
  });

  it('reports a failed read as an error', async () => {
    installFakeClient({});
    await useRunViewStore.getState().open(REPO, RUN);
    expect(useRunViewStore.getState().error).toMatch(/no fake for run\/get/);
    expect(useRunViewStore.getState().loading).toBe(false);
  });
});
