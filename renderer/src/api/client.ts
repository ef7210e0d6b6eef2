import { clientFromBridge, type LatheClient } from '../../../shared/contract/api';
import { createSocketClient, type ConnectionState } from '../../../shared/contract/socketClient';
import { LatheError } from '../../../shared/errors';
import type { Result } from '../../../shared/result';

let current: LatheClient | null = null;

/** Electron's preload bridge when present, else the web host's WebSocket on this page's origin. */
export function connectClient(onState: (state: ConnectionState) => void): LatheClient {
  if (window.lathe) {
    onState('open');
    current = clientFromBridge(window.lathe);
    return current;
  }
  const params = new URLSearchParams(window.location.search);
  const token = params.get('token');
  if (token !== null) {
    // The host set a cookie from the token; keep the secret out of history and screenshots.
    params.delete('token');
    const rest = params.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  }
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const url = `${scheme}://${window.location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  current = createSocketClient({ url, createSocket: (address) => new WebSocket(address), onStateChange: onState });
  return current;
}

export function setClient(client: LatheClient): void {
  current = client;
}

export function client(): LatheClient {
  if (!current) throw new Error('Lathe client used before connectClient()');
  return current;
}

/** Unwraps a Result for store actions, which report the error in their own state. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new LatheError(result.error.code, result.error.message, result.error.data);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
