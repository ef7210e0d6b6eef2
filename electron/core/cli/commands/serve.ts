import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../../shared/errors';
import type { ShellChannel } from '../../../../shared/contract/channels';
import type { Handler, Handlers } from '../../../../shared/contract/api';
import { EventBus } from '../../runs/eventBus';
import { createCore } from '../../api/coreHandlers';
import { sourceAppRoot } from '../../appRoot';
import { defaultDataDir } from '../../dataDir';
import { startWebHost } from '../../host/webHost';
import { parseCommandArgs, UsageError, wantsHelp, type Command } from '../command';
import { ExitCode } from '../exitCodes';
import { repoRootArg } from '../repoArg';

const usage = `Usage: lathe serve [--port N] [--repo DIR]

Serves the Lathe window to a browser on 127.0.0.1 only and prints one URL with a per-launch token.
  --port N     port to listen on (default: a free port)
  --repo DIR   open this repository when the page loads
Stops cleanly on Ctrl-C (SIGINT) or SIGTERM.`;

/** In the browser there is no native dialog; the window shows a path field instead. */
const browserShellHandlers: { [C in ShellChannel]: Handler<C> } = {
  'dialog/openFolder': async () => {
    throw new LatheError('UNSUPPORTED', 'native dialogs are not available in browser mode; type the path');
  },
};

export const serveCommand: Command = {
  name: 'serve',
  summary: 'serve the Lathe window to a local browser',
  usage,
  async run(args, io) {
    if (wantsHelp(args)) {
      io.out(usage);
      return ExitCode.success;
    }
    const { values } = parseCommandArgs(args, { port: { type: 'string' }, repo: { type: 'string' } });
    const port = values.port === undefined ? 0 : Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be 0-65535, got ${values.port}`);
    // A wrong --repo is the user's to fix first (exit 64), whatever the state of the build.
    const repo = values.repo === undefined ? null : await repoRootArg(io.cwd, values.repo);
    const rendererDir = path.join(sourceAppRoot(), 'out', 'renderer');
    if (!fs.existsSync(path.join(rendererDir, 'index.html'))) {
      io.err(`lathe serve: the window is not built (${rendererDir} is missing); run \`npm run build\` first.`);
      return ExitCode.infraError;
    }
    const launchQuery: Record<string, string> = {};
    if (repo !== null) launchQuery.repo = repo;

    const events = new EventBus();
    const core = createCore({ mode: 'browser', dataDir: defaultDataDir(io.env), events, appRoot: sourceAppRoot() });
    const handlers: Handlers = { ...core.handlers, ...browserShellHandlers };
    const host = await startWebHost({ port, rendererDir, handlers, events, launchQuery, log: io.err });
    io.out(host.url);

    await new Promise<void>((resolve) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        // Runs stop after their current step and stay resumable.
        void core.runs
          .stopAll()
          .then(() => host.close())
          .then(resolve);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    io.err('lathe serve: stopped.');
    return ExitCode.success;
  },
};
