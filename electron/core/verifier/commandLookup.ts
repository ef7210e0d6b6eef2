import fs from 'node:fs';
import path from 'node:path';

/** Where argv[0] would be found (PATH lookup as execvp does), or null: a missing command is INFRA_ERROR before anything runs. */
export async function findExecutable(command: string, cwd: string, pathVariable: string): Promise<string | null> {
  const candidates = command.includes('/') ? [path.resolve(cwd, command)] : pathVariable.split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, command));
  for (const candidate of candidates) {
    try {
      await fs.promises.access(candidate, fs.constants.X_OK);
      if ((await fs.promises.stat(candidate)).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return null;
}
