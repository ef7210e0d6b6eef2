import fs from 'node:fs';
import path from 'node:path';
import git, { type TreeEntry } from 'isomorphic-git';
import { afterEach, describe, expect, it } from 'vitest';
import { fsckStrict } from '../../../test-support/gitState';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { serializeCommit, serializeTree, writeLooseObject } from './looseObjects';
import { openRepo } from './repoContext';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

function repository(): TempRepo {
  const repo = makeTempRepo({ files: { 'a.txt': 'a\n' } });
  repos.push(repo);
  return repo;
}

describe('loose objects written in process', () => {
  it('give blobs, trees and commits the same ids isomorphic-git and native git give them, fsck-clean', async () => {
    const repo = repository();
    const context = await openRepo(repo.dir, { useNative: true });
    const iso = { fs, gitdir: path.join(repo.dir, '.git') };
    const content = Buffer.from('line one\r\nline two\n\0binary tail');
    const blob = await writeLooseObject(context, 'blob', content);
    fs.writeFileSync(path.join(repo.dir, 'raw.bin'), content);
    expect(blob).toBe(repo.git('hash-object', '--no-filters', 'raw.bin'));
    expect(blob).toBe(await git.writeBlob({ ...iso, blob: content }));

    // Folder entries sort as if they ended in '/', by bytes (so 'a-b' < 'a/' < 'a0' and 'é' after 'z').
    const entries: TreeEntry[] = [
      { mode: '100644', path: 'a0', oid: blob, type: 'blob' },
      { mode: '040000', path: 'a', oid: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', type: 'tree' },
      { mode: '100755', path: 'a-b', oid: blob, type: 'blob' },
      { mode: '120000', path: 'link', oid: blob, type: 'blob' },
      { mode: '100644', path: 'é', oid: blob, type: 'blob' },
      { mode: '100644', path: 'z', oid: blob, type: 'blob' },
    ];
    await writeLooseObject(context, 'tree', Buffer.alloc(0));
    const tree = await writeLooseObject(context, 'tree', serializeTree(entries));
    expect(tree).toBe(await git.writeTree({ ...iso, tree: [...entries] }));
    expect(
      repo
        .git('ls-tree', tree)
        .split('\n')
        .map((line) => line.split('\t')[1]),
    ).toEqual(['a-b', 'a', 'a0', 'link', 'z', '"\\303\\251"']);

    const parent = repo.git('rev-parse', 'HEAD');
    for (const [timezoneOffset, message] of [
      [0, 'subject\n\nbody\n\nLathe-Task: T1\n'],
      [-0, '\n\nleading blank lines\r\nand a CR\n\n\n'],
      [-330, 'east of UTC'],
      [420, 'west of UTC'],
      [-765, 'Chatham'],
    ] as const) {
      const person = { name: 'Lathe', email: 'lathe@localhost', timestamp: 1_700_000_123, timezoneOffset };
      const commit = {
        tree,
        parent: [parent],
        author: person,
        committer: { ...person, name: 'Someone Else' },
        message,
      };
      const ours = await writeLooseObject(context, 'commit', serializeCommit(commit));
      expect(ours).toBe(await git.writeCommit({ ...iso, commit }));
    }
    expect(fsckStrict(repo.dir)).toEqual({ code: 0, output: '' });
  });

  it('leaves no temporary file behind and does not rewrite an object that exists', async () => {
    const repo = repository();
    const context = await openRepo(repo.dir, { useNative: true });
    const oid = await writeLooseObject(context, 'blob', Buffer.from('once\n'));
    const file = path.join(repo.dir, '.git', 'objects', oid.slice(0, 2), oid.slice(2));
    const before = fs.statSync(file);
    expect(await writeLooseObject(context, 'blob', Buffer.from('once\n'))).toBe(oid);
    expect(fs.statSync(file).mtimeMs).toBe(before.mtimeMs);
    expect(fs.readdirSync(path.dirname(file)).filter((name) => name.startsWith('tmp_'))).toEqual([]);
    expect((before.mode & 0o777).toString(8)).toBe('444');
  });
});
