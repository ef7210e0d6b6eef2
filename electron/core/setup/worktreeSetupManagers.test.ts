import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makePackageManagerStandIns, type PackageManagerStandIns } from '../../../test-support/packageManagerStandIns';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createGitFacade } from '../git/gitFacade';
import { runWorkspaceSetup } from './worktreeSetup';

// pnpm and yarn are not installable here (corepack refuses the registry's metadata), so stand-ins on
// PATH play them: what is tested is Lathe's choice of command and what it does with the work tree after.
const facade = createGitFacade();
const repos: TempRepo[] = [];
let standIns: PackageManagerStandIns;
let savedPath: string | undefined;
beforeEach(() => {
  standIns = makePackageManagerStandIns();
  savedPath = process.env.PATH;
  process.env.PATH = `${standIns.binDir}${path.delimiter}${savedPath ?? ''}`;
});
afterEach(() => {
  process.env.PATH = savedPath;
  standIns.remove();
  repos.splice(0).forEach((repo) => repo.remove());
});

function repoWith(files: Record<string, string>, manifest: Record<string, unknown> = {}): TempRepo {
  const repo = makeTempRepo({
    files: {
      '.gitignore': 'node_modules/\n',
      'package.json': JSON.stringify(
        { name: 'app', version: '1.0.0', dependencies: { dep: 'file:./dep' }, ...manifest },
        null,
        2,
      ),
      'dep/package.json': JSON.stringify({ name: 'dep', version: '1.0.0' }),
      ...files,
    },
  });
  repos.push(repo);
  return repo;
}

describe('setup auto with pnpm and yarn: the lockfile picks the install, and a lockfile it rewrites is put back', () => {
  it.each([
    [
      'pnpm',
      'pnpm-lock.yaml',
      "lockfileVersion: '9.0'\n",
      {},
      {},
      'pnpm',
      ['install', '--frozen-lockfile', '--ignore-scripts'],
    ],
    [
      'yarn classic',
      'yarn.lock',
      '# yarn lockfile v1\n',
      {},
      {},
      'yarn',
      ['install', '--frozen-lockfile', '--ignore-scripts', '--non-interactive'],
    ],
    [
      'yarn berry, by its lockfile',
      'yarn.lock',
      '__metadata:\n  version: 8\n',
      {},
      {},
      'yarn',
      ['install', '--immutable', '--mode=skip-build'],
    ],
    [
      'yarn berry, by .yarnrc.yml',
      'yarn.lock',
      '# yarn lockfile v1\n',
      { '.yarnrc.yml': 'nodeLinker: node-modules\n' },
      {},
      'yarn',
      ['install', '--immutable', '--mode=skip-build'],
    ],
    [
      'pnpm named by packageManager beside a package-lock.json',
      'pnpm-lock.yaml',
      "lockfileVersion: '9.0'\n",
      { 'package-lock.json': '{}\n' },
      { packageManager: 'pnpm@9.15.0' },
      'pnpm',
      ['install', '--frozen-lockfile', '--ignore-scripts'],
    ],
  ])('%s: %s', async (_case, lockfile, committed, extra, manifest, program, args) => {
    const repo = repoWith({ [lockfile]: committed, ...extra }, manifest);
    const workspace = await facade.startRun(repo.dir, {
      runId: `auto-${program}`,
      branchPrefix: 'lathe',
      allowDirty: false,
    });
    const result = await runWorkspaceSetup({ workspace, argv: ['auto'], timeoutMs: 60_000 });

    const argv = [program, ...args];
    expect(result).toMatchObject({
      status: 'passed',
      argv,
      restored: [lockfile],
      note: `${lockfile}: ${argv.join(' ')}; restored ${lockfile} (the installer rewrote it)`,
    });
    expect(standIns.calls()).toEqual([{ program, args, cwd: workspace.workDir }]);
    expect(result.output).toContain(`stand-in ${program}: installed`);
    // The install stays, its lockfile is the committed one, and nothing is left for a step to commit.
    expect(fs.existsSync(path.join(workspace.workDir, 'node_modules', 'dep', 'package.json'))).toBe(true);
    expect(fs.readFileSync(path.join(workspace.workDir, lockfile), 'utf8')).toBe(committed);
    expect(repo.git('-C', workspace.workDir, 'status', '--porcelain')).toBe('');
    expect(repo.git('rev-parse', `refs/heads/${workspace.branch}`)).toBe(workspace.baseCommit);
  });
});
