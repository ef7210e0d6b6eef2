import type { CoreHandlers } from '../../../shared/contract/api';
import type { AppMode } from '../../../shared/schemas/app';
import { APP_NAME, APP_VERSION } from '../appVersion';
import { readRepoStatus, resolveRepoRoot } from '../git/repoStatus';
import { listRuns } from '../runs/listRuns';
import type { EventBus } from './eventBus';

export interface CoreOptions {
  mode: AppMode;
  dataDir: string;
  events: EventBus;
  electronVersion?: string | null;
}

/** The handlers every host shares: Electron IPC and the WebSocket host both dispatch to these. */
export function createCoreHandlers(options: CoreOptions): CoreHandlers {
  return {
    'app/info': async () => ({
      name: APP_NAME,
      version: APP_VERSION,
      mode: options.mode,
      platform: `${process.platform}-${process.arch}`,
      nodeVersion: process.versions.node,
      electronVersion: options.electronVersion ?? null,
      dataDir: options.dataDir,
    }),
    'repo/open': async ({ path }) => {
      const status = await readRepoStatus(path);
      options.events.emit('repo/changed', status);
      return status;
    },
    'repo/status': async ({ path }) => readRepoStatus(path),
    'runs/list': async ({ repo }) => ({ runs: await listRuns(await resolveRepoRoot(repo)) }),
  };
}
