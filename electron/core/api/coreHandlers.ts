import type { CoreHandlers } from '../../../shared/contract/api';
import type { AppMode } from '../../../shared/schemas/app';
import { APP_NAME, APP_VERSION } from '../appVersion';
import { resolveRepoRoot } from '../git/repoStatus';
import { readRepoStatus } from '../workspace/repoStatus';
import { readCallRecord } from '../runs/callRecords';
import { listRuns } from '../runs/listRuns';
import os from 'node:os';
import path from 'node:path';
import { defaultModelFolders, scanModelFolders } from '../llm/index';
import { RunManager } from '../runs/runManager';
import { RunOperations } from '../runs/runOperations';
import { SettingsStore } from '../settings/settingsStore';
import { createGitFacade } from '../workspace/index';
import type { EventBus } from '../runs/eventBus';

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
export function createCore(options: CoreOptions, runs?: RunManager): Core {
  const settings = new SettingsStore(options.dataDir);
  const manager =
    runs ?? new RunManager({ events: options.events, appRoot: options.appRoot, dataDir: options.dataDir, settings });
  return { handlers: createCoreHandlers(options, manager, settings), runs: manager };
}

function fitsInMemory(sizeBytes: number): boolean {
  // The weights plus a working margin (context, KV cache) must fit in RAM.
  return sizeBytes * 1.2 + 512 * 2 ** 20 < os.totalmem();
}

/** The handlers every host shares: Electron IPC and the WebSocket host both dispatch to these. */
export function createCoreHandlers(options: CoreOptions, runs: RunManager, settings: SettingsStore): CoreHandlers {
  const operations = new RunOperations(
    { git: createGitFacade() },
    path.join(options.dataDir, 'artifacts'),
    (repoRoot, runId) => runs.isActive(repoRoot, runId),
  );
  return {
    'app/info': async () => ({
      name: APP_NAME,
      version: APP_VERSION,
      mode: options.mode,
      platform: `${process.platform}-${process.arch}`,
      nodeVersion: process.versions.node,
      electronVersion: options.electronVersion ?? null,
      dataDir: options.dataDir,
      cpuCount: os.cpus().length,
      memoryBytes: os.totalmem(),
    }),
    'repo/open': async ({ path: requested }) => {
      const status = await readRepoStatus(requested);
      settings.addRecentRepo(status.path, status.name);
      options.events.emit('repo/changed', status);
      return status;
    },
    'repo/status': async ({ path }) => readRepoStatus(path),
    'runs/list': async ({ repo }) => ({ runs: await listRuns(await resolveRepoRoot(repo)) }),
    'run/start': (request) => runs.start(request),
    'run/resume': ({ repo, runId, timeLimitMs, goal }) => runs.resume(repo, runId, timeLimitMs, null, goal),
    'run/pause': ({ repo, runId }) => runs.pause(repo, runId),
    'run/cancel': ({ repo, runId }) => runs.cancel(repo, runId),
    'run/get': ({ repo, runId, afterSeq, limit }) => runs.page(repo, runId, afterSeq, limit),
    'run/commits': ({ repo, runId }) => operations.commits(repo, runId),
    'run/diff': ({ repo, runId, from, to }) => operations.diff(repo, runId, from, to),
    'run/undo': ({ repo, runId }) => operations.undo(repo, runId),
    'run/merge': ({ repo, runId }) => operations.merge(repo, runId),
    'run/exportPatch': ({ repo, runId }) => operations.exportPatch(repo, runId),
    'run/report': ({ repo, runId }) => operations.report(repo, runId),
    'run/call': async ({ repo, runId, call }) => readCallRecord(await resolveRepoRoot(repo), runId, call),
    'verifier/log': ({ repo, runId, verifyRunId }) => operations.verifierLog(repo, runId, verifyRunId),
    'repo/recent': async () => ({ repos: settings.read().recentRepos }),
    'models/list': async () => {
      const folders = defaultModelFolders({ settingsFolders: settings.read().modelFolders });
      const models = await scanModelFolders(folders);
      return { folders, models: models.map((model) => ({ ...model, fitsInMemory: fitsInMemory(model.sizeBytes) })) };
    },
    'settings/get': async () => settings.readWithNotice(),
    'settings/set': async (patch) => settings.update(patch),
    'gate/decide': ({ repo, runId, gateId, approved, comment, feedback, edits }) =>
      runs.decideGate(repo, runId, gateId, {
        approved,
        comment: comment ?? null,
        feedback: feedback ?? null,
        ...(edits ? { edits } : {}),
      }),
  };
}
