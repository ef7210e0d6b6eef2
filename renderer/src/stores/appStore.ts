import { create } from 'zustand';
import type { AppInfo } from '../../../shared/schemas/app';
import type { ConnectionState } from '../../../shared/contract/socketClient';
import { client, errorMessage, unwrap } from '../api/client';

interface AppState {
  info: AppInfo | null;
  connection: ConnectionState;
  error: string | null;
  setConnection(state: ConnectionState): void;
  loadInfo(): Promise<void>;
  reset(): void;
}

export const initialAppState = { info: null, connection: 'connecting' as ConnectionState, error: null };

export const useAppStore = create<AppState>()((set) => ({
  ...initialAppState,
  setConnection: (connection) => set({ connection }),
  loadInfo: async () => {
    try {
      set({ info: unwrap(await client().request('app/info', {})), error: null });
    } catch (error) {
      set({ error: errorMessage(error) });
    }
  },
  reset: () => set(initialAppState),
}));
