import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { clearListingMemory, listWithBlobs } from './gitListing';

let repo: TempRepo | null = null;
afterEach(() => {
  repo?.remove();
  repo = null;
});

/** What `git ls-files -s` says, as path → blob id. */
function gitStaged(dir: TempRepo): Map<string, string> {
  const staged = new Map<string, string>();
  for (const line of dir.git('ls-files', '-s', '-z').split('\0').filter(Boolean)) {
    const [meta, file] = line.split('\t') as [string, string];
    staged.set(file, meta.split(' ')[1] as string);
  }
  return staged;
}

describe('listWithBlobs', () => {
  it('reads the index in this process to the same blob ids git lists (nested folders, an executable, a symlink, unicode)', async () => {
    repo = makeTempRepo({
      files: {
        'src/a.js': 'a\n',
        'src/deep/b.js': 'b\n',
        'bin/run.sh': '#!/bin/sh\n',
        'naïve.txt': 'n\n',
        '.gitignore': 'out/\n',
      },
    });
    fs.chmodSync(path.join(repo.dir, 'bin', 'run.sh'), 0o755);
    fs.symlinkSync('src/a.js', path.join(repo.dir, 'link.js'));
    repo.commitAll('files');
    clearListingMemory();
    const listing = await listWithBlobs(repo.dir);
    expect(listing).not.toBeNull();
    expect(new Map(listing?.staged)).toEqual(gitStaged(repo));
    expect(listing?.changed).toEqual([]);
  });

  it('asks git what changed unless the caller vouches for the work tree, and then lists nothing changed', async () => {
    repo = makeTempRepo({ files: { 'a.js': 'a\n', '.gitignore': 'out/\n' } });
    repo.write('a.js', 'changed\n');
    repo.write('new.js', 'new\n');
    repo.write('out/ignored.js', 'x\n');
    clearListingMemory();
    expect((await listWithBlobs(repo.dir))?.changed.sort()).toEqual(['a.js', 'new.js']);
    // Vouching is the engine's promise (it has just committed and nothing wrote since): it is taken at its word.
    expect((await listWithBlobs(repo.dir, { workTreeMatchesIndex: true }))?.changed).toEqual([]);
  });

  it('follows the index as it changes: a newly staged file appears with its blob id', async () => {
    repo = makeTempRepo({ files: { 'a.js': 'a\n' } });
    clearListingMemory();
    expect([...((await listWithBlobs(repo.dir))?.staged.keys() ?? [])]).toEqual(['a.js']);
    repo.write('b.js', 'b\n');
    repo.git('add', 'b.js');
    const after = await listWithBlobs(repo.dir, { workTreeMatchesIndex: true });
    expect(after?.staged.get('b.js')).toBe(gitStaged(repo).get('b.js'));
  });

  it('leaves an index with unmerged entries to git', async () => {
    repo = makeTempRepo({ files: { 'a.js': 'base\n' } });
    repo.git('checkout', '-q', '-b', 'other');
    repo.write('a.js', 'other\n');
    repo.commitAll('other');
    repo.git('checkout', '-q', 'main');
    repo.write('a.js', 'main\n');
    repo.commitAll('main');
    try {
      repo.git('merge', '-q', 'other');
    } catch {
      // The conflict is the point.
    }
    clearListingMemory();
    const listing = await listWithBlobs(repo.dir, { workTreeMatchesIndex: true });
    // git's `ls-files -s` lists stage 1–3 entries; the listing keeps the last of them, as before.
    expect(listing?.staged.has('a.js')).toBe(true);
  });
});
