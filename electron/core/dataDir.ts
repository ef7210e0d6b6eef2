import os from 'node:os';
import path from 'node:path';

/** Where the CLI and the web host keep settings and models; the Electron shell passes userData instead. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.LATHE_HOME ? path.resolve(env.LATHE_HOME) : path.join(os.homedir(), '.lathe');
}
