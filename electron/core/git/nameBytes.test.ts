import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeGitPath, encodeGitPath, quoteGitPath } from '../../../shared/gitPath';
import { fsckStrict } from '../../../test-support/gitState';
import {
  HOSTILE_LINK,
  HOSTILE_NAMES,
  hex,
  namesOnDisk,
  treeRecords,
  writeHostileNames,
} from '../../../test-support/hostileNames';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import type { RunWorkspace } from './types';
import { createGitFacade } from './gitFacade';
import { parseTree } from './treeObjects';

/**
 * Issue 27, item 3: any name git can store is kept byte for byte in a run's commits, diffs, undo and
 * merge. Today's finding: `caf\xe9.txt` became `caf\357\277\275.txt` (R100) in a step commit, because
 * the folder's tree was read back as UTF-8 text and written again.
 */
const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

function hostileRepo(): TempRepo {
  const repo = makeTempRepo({ files: { 'src/app.js': 'export const v = 1;\n', 'README.md': '# app\n' } });
  repos.push(repo);
  writeHostileNames(repo.dir);
  repo.commitAll('hostile names');
  return repo;
}

const step = (taskId: string) => ({ runId: 'n1', taskId, title: 'change app.js', role: 'coder' });
const ALL = [...HOSTILE_NAMES, HOSTILE_LINK].map(hex);

describe.each([
  ['worktree runs (native git)', createGitFacade()],
  ['in-place runs (isomorphic-git only)', createGitFacade({ useNativeGit: false })],
])('names byte for byte: %s', (_mode, facade) => {
  async function startRun(repo: TempRepo): Promise<RunWorkspace> {
    const root = makeTempDir('lathe-names-wt-');
    dirs.push(root);
    return facade.startRun(repo.dir, { runId: 'n1', branchPrefix: 'lathe', allowDirty: false, worktreeRoot: root });
  }

  it('starts on a clean tree and commits a step without renaming a single entry', async () => {
    const repo = hostileRepo();
    const base = treeRecords(repo.dir, 'HEAD');
    const workspace = await startRun(repo);
    expect(namesOnDisk(workspace.workDir)).toEqual(expect.arrayContaining(ALL));
    fs.writeFileSync(path.join(workspace.workDir, 'src/app.js'), 'export const v = 2;\n');
    fs.writeFileSync(path.join(workspace.workDir, 'README.md'), '# app, changed\n');
    const sha = await facade.commitStep(workspace, ['src/app.js', 'README.md'], step('T1'));
    const after = treeRecords(repo.dir, sha as string);
    for (const name of ALL) expect(after.get(name), Buffer.from(name, 'hex').toString('latin1')).toBe(base.get(name));
    expect([...after.keys()].sort()).toEqual([...base.keys()].sort());
    expect(
      repo
        .git('diff', '--name-status', 'main', sha as string)
        .split('\n')
        .sort(),
    ).toEqual(['M\tREADME.md', 'M\tsrc/app.js']);
    expect(fsckStrict(repo.dir).code).toBe(0);
    // The index written in this process keeps git's order and every name: git sees a clean work tree.
    if (workspace.mode === 'worktree') expect(repo.git('-C', workspace.workDir, 'status', '--porcelain')).toBe('');
  });

  it('diffs a change to such a file under its own name, shown in git quoting', async () => {
    const repo = hostileRepo();
    const workspace = await startRun(repo);
    const target = Buffer.concat([Buffer.from(`${workspace.workDir}/`), HOSTILE_NAMES[0] as Buffer]);
    fs.writeFileSync(target, 'changed by hand\n');
    // A person's own commit on the run branch (what a resolved stuck run has): native git as the user would.
    repo.git('-C', workspace.workDir, 'commit', '--quiet', '-am', 'by hand');
    const diff = await facade.diffRun(workspace);
    const names = diff.map((file) => file.path);
    expect(names).toEqual([decodeGitPath(HOSTILE_NAMES[0] as Buffer)]);
    expect(quoteGitPath(names[0] as string)).toBe('"caf\\351.txt"');
    expect(diff[0]?.after).toBe('changed by hand\n');
  }, 20_000);

  it('undoes a run and merges one with every name intact', async () => {
    const repo = hostileRepo();
    const base = treeRecords(repo.dir, 'HEAD');
    const workspace = await startRun(repo);
    fs.writeFileSync(path.join(workspace.workDir, 'src/app.js'), 'export const v = 2;\n');
    const sha = (await facade.commitStep(workspace, ['src/app.js'], step('T1'))) as string;
    // A command of the run rewrote one of them (as a test suite may): resetting to the commit restores it, under its name.
    const written = Buffer.concat([Buffer.from(`${workspace.workDir}/`), HOSTILE_NAMES[1] as Buffer]);
    fs.writeFileSync(written, 'scribbled\n');
    await facade.resetTo(workspace, sha);
    expect(fs.readFileSync(written, 'utf8')).toBe(`${(HOSTILE_NAMES[1] as Buffer).toString('hex')}\n`);
    expect(namesOnDisk(workspace.workDir)).toEqual(expect.arrayContaining(ALL));

    await facade.mergeRun(workspace);
    const merged = treeRecords(repo.dir, 'main');
    for (const name of ALL) expect(merged.get(name)).toBe(base.get(name));
    expect(namesOnDisk(repo.dir)).toEqual(expect.arrayContaining(ALL));

    await facade.undoRun(workspace);
    expect(repo.git('rev-parse', 'main')).toBe(repo.git('rev-parse', 'HEAD'));
    expect(treeRecords(repo.dir, 'main')).toEqual(base);
    expect(namesOnDisk(repo.dir)).toEqual(expect.arrayContaining(ALL));
    expect(repo.git('status', '--porcelain')).toBe('');
  }, 20_000);
});

describe('reading a tree', () => {
  const entry = (mode: string, name: Buffer) =>
    Buffer.concat([Buffer.from(`${mode} `), name, Buffer.alloc(1), Buffer.alloc(20, 0xab)]);

  it('keeps each name and mode as stored', () => {
    const tree = Buffer.concat([
      entry('100644', Buffer.from('caf\xe9', 'latin1')),
      entry('40000', Buffer.from('dir')),
      entry('100664', Buffer.from('old-mode')),
    ]);
    const entries = parseTree(tree, 'test');
    expect(entries.map((item) => [item.mode, item.type])).toEqual([
      ['100644', 'blob'],
      ['040000', 'tree'],
      ['100664', 'blob'],
    ]);
    expect(Buffer.from(encodeGitPath(entries[0]?.path as string))).toEqual(Buffer.from('caf\xe9', 'latin1'));
  });

  it.each(['..', '.', '.GIT', '.git. ', 'git~1', 'a/b', ''])(
    'refuses an entry named %j, as git refuses to check it out',
    (name) => {
      expect(() => parseTree(entry('100644', Buffer.from(name)), 'test')).toThrow(/refuses to check out|malformed/);
    },
  );
});
