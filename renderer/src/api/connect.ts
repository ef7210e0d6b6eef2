import type { LatheClient } from '../../../shared/contract/api';
import { useAppStore } from '../stores/appStore';
import { useGateAlertStore } from '../stores/gateAlertStore';
import { useHistoryStore } from '../stores/historyStore';
import { useLiveStore } from '../stores/liveStore';
import { useRepoStore } from '../stores/repoStore';
import { useRunViewStore } from '../stores/runViewStore';
import { useUiStore } from '../stores/uiStore';
import { connectClient } from './client';

const GATE_CLEARING_EVENTS = new Set(['gate_decided', 'gate_closed', 'run_finished', 'run_stopped']);

/** Routes the core's pushed events to the stores that follow them. */
export function subscribeStores(client: LatheClient): () => void {
  let historyTimer: ReturnType<typeof setTimeout> | null = null;
  const reloadHistory = (repo: string) => {
    const history = useHistoryStore.getState();
    if (history.repo !== repo || historyTimer) return;
    historyTimer = setTimeout(() => {
      historyTimer = null;
      void useHistoryStore.getState().load(repo);
    }, 300);
  };
  const stops = [
    client.on('run/event', (event) => {
      if (event.type === 'agent_call' && event.run_id === useLiveStore.getState().runId)
        useLiveStore.getState().startCall(event.role);
      if (GATE_CLEARING_EVENTS.has(event.type)) useGateAlertStore.getState().setWaiting(event.run_id, '', false);
      useRunViewStore.getState().receive(event);
    }),
    client.on('run/transient', ({ run_id, event }) => useLiveStore.getState().receive(run_id, event)),
    client.on('run/status', ({ run_id, repo, status, active }) => {
      useGateAlertStore.getState().setWaiting(run_id, repo, status === 'waiting_for_gate');
      useRunViewStore.getState().receiveStatus(run_id, status, active);
      reloadHistory(repo);
    }),
    client.on('repo/changed', (status) => {
      useRepoStore.getState().setStatus(status);
      if (useUiStore.getState().route.repo !== status.path)
        useUiStore.getState().navigate({ repo: status.path }, { replace: true });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
    if (historyTimer) clearTimeout(historyTimer);
  };
}

let connected = false;

/** Connects once per page (StrictMode runs effects twice in development). */
export function connectOnce(): void {
  if (connected) return;
  connected = true;
  const client = connectClient((state) => useAppStore.getState().setConnection(state));
  subscribeStores(client);
  void useAppStore.getState().loadInfo();
  void useRepoStore.getState().loadRecent();
}
