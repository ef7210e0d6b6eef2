import { create, type StoreApi } from 'zustand';
import type { RunState } from '../../../shared/engine/runState';
import type { RunLogEvent, RunStatus } from '../../../shared/schemas/run';
import { client, errorMessage, unwrap } from '../api/client';
import { useLiveStore } from './liveStore';
import { markMoment } from '../lib/paintMarks';
import { buildRunView, emptyRunView, reduceRunEventBatch } from '../../../shared/runView/reduceRunEvents';
import { eventsAfter, runFigures, type RunFigures } from '../../../shared/runView/runFigures';
import type { RunView } from '../../../shared/runView/types';

const PAGE_LIMIT = 20_000;
const STATE_REFRESH_MS = 400;

interface RunViewState {
  repo: string | null;
  runId: string | null;
  /** Every log event read so far, in seq order (the timeline shows them; the view is reduced from them). */
  events: RunLogEvent[];
  view: RunView;
  /** The run's numbers (`runFigures`): the core's with each read, recomputed from the same function for live events between reads. */
  figures: RunFigures | null;
  /** `run/get`'s persisted state: config, limits, thresholds, counters, budget. */
  state: RunState | null;
  /** A session of this run is going on in the core. */
  active: boolean;
  loading: boolean;
  error: string | null;
  /** performance.now() when `state` was read, to tick the elapsed time between reads. */
  stateReadAt: number;
  open(repo: string, runId: string): Promise<void>;
  /** A live `run/event`; batched, gap-filled from the log, deduplicated by seq. */
  receive(event: RunLogEvent): void;
  receiveStatus(runId: string, status: RunStatus, active: boolean): void;
  refreshState(): Promise<void>;
  flushLive(): void;
  close(): void;
  reset(): void;
}

export const initialRunViewState = {
  repo: null,
  runId: null,
  events: [] as RunLogEvent[],
  view: emptyRunView(),
  figures: null as RunFigures | null,
  state: null,
  active: false,
  loading: false,
  error: null,
  stateReadAt: 0,
};

let queued: RunLogEvent[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
let generation = 0;

function now(): number {
  return typeof performance === 'undefined' ? Date.now() : performance.now();
}

type RunViewAccess = Pick<StoreApi<RunViewState>, 'setState' | 'getState'>;

/** Appends events newer than what is held and reduces them; rebuilds when a resume orphaned some. */
function absorb({ setState: set, getState: get }: RunViewAccess, incoming: RunLogEvent[]): void {
  const { events, view } = get();
  const lastSeq = events.at(-1)?.seq ?? 0;
  const fresh: RunLogEvent[] = [];
  for (const event of [...incoming].sort((a, b) => a.seq - b.seq)) {
    if (event.seq > (fresh.at(-1)?.seq ?? lastSeq)) fresh.push(event);
  }
  if (fresh.length === 0) return;
  const all = events.concat(fresh);
  // Live events between two reads move the view by the same pure reducer the core runs; the next read replaces it.
  let next = reduceRunEventBatch(view, fresh);
  if (next.needsRebuild) next = buildRunView(all, view.runId);
  const { state } = get();
  set({ events: all, view: next, figures: state ? runFigures(next, state, eventsAfter(all, state.log_seq)) : null });
}

async function readPages(
  store: RunViewAccess,
  repo: string,
  runId: string,
  afterSeq: number,
  token: number,
): Promise<boolean> {
  const { setState: set, getState: get } = store;
  let cursor = afterSeq;
  for (;;) {
    const page = unwrap(await client().request('run/get', { repo, runId, afterSeq: cursor, limit: PAGE_LIMIT }));
    if (token !== generation) return false;
    absorb(store, page.events);
    set({ state: page.state, active: page.active, stateReadAt: now() });
    // The page that reaches the log's end carries the core's projection: the one truth, held as sent.
    if (page.view && page.figures && page.view.lastSeq === get().view.lastSeq)
      set({ view: page.view, figures: page.figures });
    useLiveStore.getState().seed(runId, page.streams);
    if (!page.more || page.lastSeq <= cursor) return true;
    cursor = page.lastSeq;
  }
}

function scheduleRefresh({ getState: get }: RunViewAccess): void {
  if (refreshTimer) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = null;
    void get().refreshState();
  }, STATE_REFRESH_MS);
}

/** Reads a run's whole log for `open`, from the start; returns without a word once another run was opened. */
async function openRun({ setState: set, getState: get }: RunViewAccess, repo: string, runId: string): Promise<void> {
  const current = get();
  if (current.repo === repo && current.runId === runId && !current.error) {
    // Already read (or being read, e.g. preloaded from a deep link): only catch up with the log.
    if (!current.loading) await get().refreshState();
    return;
  }
  const token = ++generation;
  queued = [];
  set({ ...initialRunViewState, repo, runId, view: emptyRunView(runId), loading: true });
  try {
    const pages: RunLogEvent[] = [];
    let cursor = 0;
    let page;
    do {
      page = unwrap(await client().request('run/get', { repo, runId, afterSeq: cursor, limit: PAGE_LIMIT }));
      if (token !== generation) return;
      pages.push(...page.events);
      cursor = page.lastSeq;
    } while (page.more && page.events.length > 0);
    markMoment('run-log-read');
    // The core sends its projection with the page that reaches the log's end; only a read cut short leaves the window to reduce.
    const view = page.view ?? buildRunView(pages, runId);
    const figures = page.figures ?? runFigures(view, page.state, eventsAfter(pages, page.state.log_seq));
    markMoment('run-view-built');
    set({
      events: pages,
      view,
      figures,
      state: page.state,
      active: page.active,
      stateReadAt: now(),
      loading: false,
    });
    useLiveStore.getState().seed(runId, page.streams);
    get().flushLive();
  } catch (error) {
    if (token === generation) set({ loading: false, error: errorMessage(error) });
  }
}

/** Absorbs the queued live events of the run shown; a gap before them (a reconnect) is read from the log first. */
function flushQueued(store: RunViewAccess): void {
  const { setState: set, getState: get } = store;
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  const { loading, repo, runId, events } = get();
  if (loading || !repo || !runId) return;
  const batch = queued.filter((event) => event.run_id === runId);
  queued = [];
  if (batch.length === 0) return;
  const lastSeq = events.at(-1)?.seq ?? 0;
  const first = Math.min(...batch.map((event) => event.seq));
  if (first > lastSeq + 1) {
    // Missed events (a reconnect): read them from the log, then the pushed ones.
    const token = generation;
    void readPages(store, repo, runId, lastSeq, token)
      .then((current) => current && absorb(store, batch))
      .catch((error: unknown) => set({ error: errorMessage(error) }));
    return;
  }
  absorb(store, batch);
  scheduleRefresh(store);
}

/** The one run the window shows: its log reduced to a view, kept live from pushed events. */
export const useRunViewStore = create<RunViewState>()((set, get) => {
  const store: RunViewAccess = { setState: set, getState: get };
  return {
    ...initialRunViewState,
    open: (repo, runId) => openRun(store, repo, runId),
    receive: (event) => {
      const { runId } = get();
      if (!runId || event.run_id !== runId) return;
      queued.push(event);
      if (!flushTimer) flushTimer = setTimeout(() => get().flushLive(), 0);
    },
    flushLive: () => flushQueued(store),
    receiveStatus: (runId, status, active) => {
      if (runId !== get().runId) return;
      // The status itself comes from the log events; this says whether a session is going on.
      set({ active });
      if (status !== get().view.status) scheduleRefresh(store);
    },
    refreshState: async () => {
      const { repo, runId, events } = get();
      if (!repo || !runId) return;
      const token = generation;
      try {
        await readPages(store, repo, runId, events.at(-1)?.seq ?? 0, token);
      } catch (error) {
        if (token === generation) set({ error: errorMessage(error) });
      }
    },
    close: () => {
      generation += 1;
      queued = [];
      set({ ...initialRunViewState, view: emptyRunView() });
    },
    reset: () => {
      generation += 1;
      queued = [];
      if (flushTimer) clearTimeout(flushTimer);
      if (refreshTimer) clearTimeout(refreshTimer);
      flushTimer = null;
      refreshTimer = null;
      set({ ...initialRunViewState, view: emptyRunView() });
    },
  };
});
