import fs from 'node:fs';
import path from 'node:path';

/**
 * Where argv[0] would be found (PATH lookup as execvp does), or null: a missing command is INFRA_ERROR
 * before anything runs. Synchronous: a few stat calls on every verify, cheaper than thread-pool trips.
 */
export function findExecutableSync(command: string, cwd: string, pathVariable: string): string | null {
  const candidates = command.includes('/')
    ? [path.resolve(cwd, command)]
    : pathVariable
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // catch-ok: not here, or not executable: the next PATH folder is tried
    }
  }
  return null;
}

export async function findExecutable(command: string, cwd: string, pathVariable: string): Promise<string | null> {
  return findExecutableSync(command, cwd, pathVariable);
}
