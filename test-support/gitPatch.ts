import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempRepo } from './tempRepo';

/** Files of a tree: path → content, or null for "absent". */
export type TreeFiles = Record<string, string | null>;

/**
 * A real `git diff --full-index` from one tree to another, the way the corpus's gold patches were
 * made, with line endings kept exactly as given (`core.autocrlf` off).
 */
export function gitPatch(before: TreeFiles, after: TreeFiles, options: { context?: number } = {}): string {
  const repo = makeTempRepo({ prefix: 'lathe-git-patch-', files: { '.keep': '' } });
  try {
    repo.git('config', 'core.autocrlf', 'false');
    const write = (files: TreeFiles) => {
      for (const [file, content] of Object.entries(files)) {
        if (content === null) fs.rmSync(path.join(repo.dir, file), { force: true });
        else repo.write(file, content);
      }
    };
    write(before);
    const start = repo.commitAll('before');
    write(Object.fromEntries(Object.keys({ ...before, ...after }).map((file) => [file, after[file] ?? null])));
    const end = repo.commitAll('after');
    // Not through repo.git: it trims, and a patch's last line may be a context line of spaces.
    return execFileSync('git', ['diff', '--full-index', `--unified=${options.context ?? 3}`, start, end], {
      cwd: repo.dir,
      encoding: 'utf8',
    });
  } finally {
    repo.remove();
  }
}
