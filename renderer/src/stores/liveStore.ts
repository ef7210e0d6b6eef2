import { create } from 'zustand';
import type { TransientEvent } from '../../../shared/schemas/run';
import { MAX_STREAM_TAIL_CHARS } from '../../../shared/contract/runRequests';

const RATE_WINDOW_MS = 3_000;

export interface ModelLoad {
  model: string;
  progress: number;
  loadMs: number | null;
}

interface LiveState {
  runId: string | null;
  /** role → the text streamed by its current call (tail only). */
  streams: Record<string, string>;
  /** role → token pieces per second over the last few seconds. */
  rates: Record<string, number>;
  modelLoad: ModelLoad | null;
  droppedContext: { role: string; ids: string[]; reason: string }[];
  follow(runId: string | null): void;
  receive(runId: string, event: TransientEvent, at?: number): void;
  /** A new call of this role starts a fresh stream. */
  startCall(role: string): void;
  /**
   * What the core holds of the calls in progress, read with the log: it replaces this window's streams for those
   * roles. The read's answer comes after every piece it includes on the same ordered channel, so nothing is doubled.
   */
  seed(runId: string, streams: Record<string, string>): void;
  reset(): void;
}

export const initialLiveState = { runId: null, streams: {}, rates: {}, modelLoad: null, droppedContext: [] };

const pieceTimes = new Map<string, number[]>();

function rateOf(role: string, at: number): number {
  const times = (pieceTimes.get(role) ?? []).filter((time) => at - time <= RATE_WINDOW_MS);
  times.push(at);
  pieceTimes.set(role, times);
  const span = Math.max(1_000, at - (times[0] ?? at));
  return Math.round((times.length / span) * 10_000) / 10;
}

/** What the core streams but never logs: tokens as they are generated, model loading. */
export const useLiveStore = create<LiveState>()((set, get) => ({
  ...initialLiveState,
  follow: (runId) => {
    if (runId === get().runId) return;
    pieceTimes.clear();
    set({ ...initialLiveState, runId });
  },
  receive: (runId, event, at = Date.now()) => {
    if (runId !== get().runId) return;
    switch (event.type) {
      case 'token': {
        const text = (get().streams[event.role] ?? '') + event.text;
        set({
          streams: {
            ...get().streams,
            [event.role]: text.length > MAX_STREAM_TAIL_CHARS ? text.slice(-MAX_STREAM_TAIL_CHARS) : text,
          },
          rates: { ...get().rates, [event.role]: rateOf(event.role, at) },
        });
        return;
      }
      case 'model_load_progress':
        set({ modelLoad: { model: event.model, progress: Math.max(0, Math.min(1, event.progress)), loadMs: null } });
        return;
      case 'model_loaded':
        set({ modelLoad: { model: event.model, progress: 1, loadMs: event.loadMs } });
        return;
      case 'context_dropped':
        set({
          droppedContext: [
            ...get().droppedContext.slice(-9),
            { role: event.role, ids: event.ids, reason: event.reason },
          ],
        });
        return;
      default:
        event satisfies never;
    }
  },
  startCall: (role) => {
    pieceTimes.delete(role);
    const { [role]: _old, ...streams } = get().streams;
    const { [role]: _rate, ...rates } = get().rates;
    set({ streams, rates });
  },
  seed: (runId, streams) => {
    if (runId !== get().runId || Object.keys(streams).length === 0) return;
    set({ streams: { ...get().streams, ...streams } });
  },
  reset: () => {
    pieceTimes.clear();
    set(initialLiveState);
  },
}));
