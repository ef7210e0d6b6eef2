import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fsckStrict, gitIn } from '../../../test-support/gitState';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from './gitFacade';

const repos: TempRepo[] = [];
const cleanup: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  cleanup.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

const facade = createGitFacade();
const BASE_FILES: Record<string, string> = {
  'README.md': '# p\n',
  'src/a.js': 'export const a = 1;\n',
  'src/old-name.js': 'export const moved = true;\n',
  'src/gone.js': 'gone\n',
  'tools/run.sh': '#!/bin/sh\necho hi\n',
  'skip/me.txt': 'skip\n',
};

type Mutation = (dir: string) => void;

/** Every kind of change a step can make: new folders, deletions, a rename, a mode change, a link, CRLF, empty and large files. */
const everyKindOfChange: Mutation = (dir) => {
  const write = (relative: string, content: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    fs.writeFileSync(path.join(dir, relative), content);
  };
  write('src/deep/new/b.js', 'export const b = 2;\n');
  write('src/a.js', 'export const a = 10;\n');
  fs.rmSync(path.join(dir, 'src/gone.js'));
  fs.renameSync(path.join(dir, 'src/old-name.js'), path.join(dir, 'src/new-name.js'));
  fs.chmodSync(path.join(dir, 'tools/run.sh'), 0o755);
  fs.symlinkSync('../README.md', path.join(dir, 'src/readme-link'));
  write('docs/windows.txt', 'one\r\ntwo\r\nmixed\nend\r\n');
  write('docs/lf.txt', 'one\ntwo\n');
  write('empty.txt', '');
  write('data/large.bin', Buffer.alloc(3 * 1024 * 1024, 'abc\r\n'));
  write('upper.bin', 'filtered content\n');
  write('tools/new.sh', '#!/bin/sh\n');
  fs.chmodSync(path.join(dir, 'tools/new.sh'), 0o755);
  // With core.symlinks=false the base's link was checked out as a plain file holding its target.
  if (!fs.lstatSync(path.join(dir, 'base-link')).isSymbolicLink())
    fs.writeFileSync(path.join(dir, 'base-link'), 'src/a.js');
};
const CHANGED = [
  'src/deep/new/b.js',
  'src/a.js',
  'src/gone.js',
  'src/old-name.js',
  'src/new-name.js',
  'tools/run.sh',
  'src/readme-link',
  'docs/windows.txt',
  'docs/lf.txt',
  'empty.txt',
  'data/large.bin',
  'upper.bin',
  'tools/new.sh',
  'base-link',
];

interface Setting {
  config?: Record<string, string>;
  attributes?: string;
  /** Index changes made in the run's worktree before the step (index v4, split index, skip-worktree). */
  index?: (workDir: string) => void;
}

/**
 * Commits the same change twice from the same base: once through Lathe's step commit, once with
 * native `git add -A && git commit` in a second worktree; returns what to compare.
 */
async function commitBothWays(setting: Setting, runId: string) {
  const repo = makeTempRepo({
    files: { ...BASE_FILES, ...(setting.attributes ? { '.gitattributes': setting.attributes } : {}) },
  });
  repos.push(repo);
  fs.symlinkSync('README.md', path.join(repo.dir, 'base-link'));
  repo.commitAll('a link');
  for (const [key, value] of Object.entries(setting.config ?? {})) repo.git('config', key, value);
  const workspace = await facade.startRun(repo.dir, { runId, branchPrefix: 'lathe', allowDirty: false });
  const nativeDir = path.join(makeTempDir(), 'native');
  cleanup.push(path.dirname(nativeDir));
  repo.git('worktree', 'add', '-q', '-b', 'native', nativeDir, workspace.baseCommit);
  for (const dir of [workspace.workDir, nativeDir]) setting.index?.(dir);
  everyKindOfChange(workspace.workDir);
  everyKindOfChange(nativeDir);
  const sha = await facade.commitStep(workspace, CHANGED, {
    runId,
    taskId: 'T1',
    title: 'every kind of change',
    role: 'coder',
  });
  gitIn(nativeDir, 'add', '-A');
  gitIn(nativeDir, '-c', 'user.name=n', '-c', 'user.email=n@x.test', 'commit', '-q', '-m', 'native');
  const status = (dir: string) => gitIn(dir, 'status', '--porcelain', '--untracked-files=all');
  return {
    sha,
    ours: { tree: gitIn(repo.dir, 'rev-parse', `${sha}^{tree}`), status: status(workspace.workDir) },
    native: { tree: gitIn(repo.dir, 'rev-parse', 'native^{tree}'), status: status(nativeDir) },
    fsck: fsckStrict(repo.dir),
    repo,
  };
}

const SETTINGS: [string, Setting][] = [
  ['no conversion configured', {}],
  ['core.autocrlf=true', { config: { 'core.autocrlf': 'true' } }],
  ['core.autocrlf=input', { config: { 'core.autocrlf': 'input' } }],
  ['.gitattributes * text=auto eol=crlf', { attributes: '* text=auto eol=crlf\n' }],
  // A configured filter is refused instead (repoPrograms.test.ts): Lathe never runs one.
  ['.gitattributes naming a filter no config defines', { attributes: '*.bin filter=lfs\nupper.bin filter=upper\n' }],
  ['core.fileMode=false', { config: { 'core.fileMode': 'false' } }],
  ['core.symlinks=false', { config: { 'core.symlinks': 'false' } }],
  [
    'core.fileMode=false and core.symlinks=false, as isomorphic-git writes them',
    { config: { 'core.fileMode': 'false', 'core.symlinks': 'false' } },
  ],
  ['an index v4', { index: (dir) => gitIn(dir, 'update-index', '--index-version', '4') }],
  ['a split index', { index: (dir) => gitIn(dir, 'update-index', '--split-index') }],
  ['a skip-worktree entry', { index: (dir) => gitIn(dir, 'update-index', '--skip-worktree', 'skip/me.txt') }],
];

describe('a step commit equals native `git add -A && git commit`', () => {
  it.each(SETTINGS)('with %s: same tree, same status afterwards, fsck --strict clean', async (_name, setting) => {
    const result = await commitBothWays(setting, 'r1');
    expect(result.sha).not.toBeNull();
    expect(result.ours.tree).toBe(result.native.tree);
    expect(result.ours.status).toBe(result.native.status);
    expect(result.fsck).toEqual({ code: 0, output: '' });
  });

  it('converts what git converts: autocrlf really changed the stored bytes', async () => {
    const crlf = await commitBothWays(SETTINGS[1]?.[1] as Setting, 'r3');
    expect(gitIn(crlf.repo.dir, 'cat-file', 'blob', `${crlf.sha}:docs/windows.txt`)).not.toContain('\r');
  });
});
