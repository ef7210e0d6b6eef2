import type { CoreHandlers } from '../../../shared/contract/api';
import type { AppMode } from '../../../shared/schemas/app';
import { APP_NAME, APP_VERSION } from '../appVersion';
import { readRepoStatus, resolveRepoRoot } from '../git/repoStatus';
import { listRuns } from '../runs/listRuns';
import { RunManager } from '../runs/runManager';
import type { EventBus } from './eventBus';

export interface CoreOptions {
  mode: AppMode;
  dataDir: string;
  events: EventBus;
  /** Where prompts/ and resources/ are (the source tree, or the packaged app). */
  appRoot: string;
  electronVersion?: string | null;
}

export interface Core {
  handlers: CoreHandlers;
  runs: RunManager;
}

/** The core every host shares: its handlers and the runs it drives. */
export function createCore(options: CoreOptions, runs = new RunManager({ events: options.events, appRoot: options.appRoot, dataDir: options.dataDir })): Core {
  return { handlers: createCoreHandlers(options, runs), runs };
}

/** The handlers every host shares: Electron IPC and the WebSocket host both dispatch to these. */
export function createCoreHandlers(options: CoreOptions, runs: RunManager): CoreHandlers {
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
    'run/start': (request) => runs.start(request),
    'run/resume': ({ repo, runId, timeLimitMs }) => runs.resume(repo, runId, timeLimitMs),
    'run/stop': ({ repo, runId }) => runs.stop(repo, runId),
    'run/get': ({ repo, runId, afterSeq, limit }) => runs.page(repo, runId, afterSeq, limit),
    'gate/decide': ({ repo, runId, gateId, approved, comment, feedback }) => runs.decideGate(repo, runId, gateId, { approved, comment: comment ?? null, feedback: feedback ?? null }),
  };
}
