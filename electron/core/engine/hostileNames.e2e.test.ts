import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeGitPath } from '../../../shared/gitPath';
import { makeExampleRepo, REPLAYS } from '../../../test-support/exampleRepo';
import {
  HOSTILE_LINK,
  HOSTILE_NAMES,
  hex,
  namesOnDisk,
  treeRecords,
  writeHostileNames,
} from '../../../test-support/hostileNames';
import { runLathe } from '../../../test-support/runCli';
import { makeTempDir } from '../../../test-support/tempRepo';
import { readLog } from './runStore';

/**
 * Issue 27, items 3 and 6: a repository whose file names are not UTF-8, hold newlines, control
 * characters, quotes or a leading dash, run through `lathe run` and `lathe undo` on the bundled example:
 * every such entry of the run's commits is the base's, byte for byte (`git ls-tree -z`), and the
 * user's checkout is as it was after the undo.
 */
const home = makeTempDir('lathe-home-');
afterAll(() => fs.rmSync(home, { recursive: true, force: true }));

describe('a repository with hostile file names, through the command line', () => {
  it('runs, commits and undoes with every name kept byte for byte', async () => {
    const repo = makeExampleRepo('js-stats');
    try {
      writeHostileNames(repo.dir);
      // A suite that creates a file and rewrites one, both named in bytes that are not UTF-8: the Verifier must undo both under their own names
      // (once the tests pass: at the run's start they fail and the script stops before writing).
      repo.write(
        'scribble.sh',
        'node --test test/ || exit 1\nprintf x > "$(printf \'new\\377.txt\')"\nprintf y >> "$(printf \'caf\\351.txt\')"\n',
      );
      repo.commitAll('hostile names');
      const base = treeRecords(repo.dir, 'HEAD');
      const diskBefore = namesOnDisk(repo.dir);
      // `node --test` with no argument walks the whole folder and trips on a name that is not UTF-8 (Node's own limit).
      const args = [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--workflow',
        'minimal',
        '--model',
        `replay:${path.join(REPLAYS, 'js-stats.minimal.json')}`,
        '--test-command',
        'sh scribble.sh',
        '--json',
      ];
      const result = await runLathe(args, { env: { LATHE_HOME: home } });
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
        run_id: string;
        branch: string;
        commits: string[];
      };
      expect(summary.commits.length).toBeGreaterThan(0);
      for (const commit of summary.commits) {
        const tree = treeRecords(repo.dir, commit);
        for (const name of [...HOSTILE_NAMES, HOSTILE_LINK].map(hex))
          expect(tree.get(name), Buffer.from(name, 'hex').toString('latin1')).toBe(base.get(name));
      }
      expect(repo.git('diff', '--name-only', 'HEAD', summary.branch).split('\n').sort()).toEqual([
        'README.md',
        'src/stats.js',
      ]);
      const writes = readLog(path.join(repo.dir, '.lathe', 'runs', summary.run_id, 'log.jsonl'))
        .filter((event) => event.type === 'test_result' && event.data.purpose === 'step')
        .map((event) => event.data.work_dir_writes as { restored: string[]; removed: string[]; failed: string[] });
      expect(writes.length).toBeGreaterThan(0);
      for (const write of writes) {
        expect(write.failed).toEqual([]);
        expect(write.restored.map((name) => Buffer.from(encodeGitPath(name)).toString('latin1'))).toContain(
          'caf\xe9.txt',
        );
        expect(write.removed.map((name) => Buffer.from(encodeGitPath(name)).toString('latin1'))).toContain(
          'new\xff.txt',
        );
      }

      const undone = await runLathe(['undo', '--repo', repo.dir, summary.run_id], { env: { LATHE_HOME: home } });
      expect(undone.code, undone.stderr).toBe(0);
      expect(treeRecords(repo.dir, 'HEAD')).toEqual(base);
      expect(namesOnDisk(repo.dir)).toEqual(diskBefore);
      expect(repo.git('status', '--porcelain')).toBe('');
    } finally {
      repo.remove();
    }
  }, 60_000);
});
