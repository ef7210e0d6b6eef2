import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitIn } from '../../../test-support/gitState';
import { makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { applyEditSet } from '../edits/applyEditSet';
import { defaultEditPolicy } from '../edits/policy';
import { createGitFacade } from './gitFacade';

const repos: TempRepo[] = [];
afterEach(() => repos.splice(0).forEach((repo) => repo.remove()));

const facade = createGitFacade();
const step = { runId: 'd1', taskId: 'T1', title: 'x', role: 'coder' };

/**
 * An npm-workspaces monorepo as npm leaves it: a hoisted node_modules with a link to the project's own
 * package and a `.bin` link, and a package with its own nested node_modules.
 */
function monorepo(): TempRepo {
  const repo = makeTempRepo();
  const files: Record<string, string> = {
    '.gitignore': 'node_modules/\n.venv/\n',
    'package.json': JSON.stringify({ name: 'demo', private: true, workspaces: ['packages/*'] }),
    'packages/app/package.json': JSON.stringify({ name: '@demo/app', version: '1.0.0' }),
    'packages/app/index.js':
      "module.exports = { pad: require('left-pad-x'), lib: require('@demo/lib'), shared: require('shared-dep') };\n",
    'packages/lib/package.json': JSON.stringify({ name: '@demo/lib', version: '1.0.0', bin: { 'demo-lib': 'cli.js' } }),
    'packages/lib/index.js': "module.exports = 'lib v1';\n",
    'packages/lib/cli.js': "#!/usr/bin/env node\nconsole.log(require('./index.js'));\n",
  };
  for (const [file, content] of Object.entries(files)) repo.write(file, content);
  fs.chmodSync(path.join(repo.dir, 'packages/lib/cli.js'), 0o755);
  repo.commitAll('initial commit');
  // Installed by the user (ignored): only the nested package has left-pad-x.
  repo.write(
    'packages/app/node_modules/left-pad-x/package.json',
    JSON.stringify({ name: 'left-pad-x', version: '2.0.0' }),
  );
  repo.write('packages/app/node_modules/left-pad-x/index.js', "module.exports = 'nested left-pad-x';\n");
  repo.write('node_modules/shared-dep/package.json', JSON.stringify({ name: 'shared-dep', version: '1.0.0' }));
  repo.write('node_modules/shared-dep/index.js', "module.exports = 'hoisted shared-dep';\n");
  fs.mkdirSync(path.join(repo.dir, 'node_modules/@demo'), { recursive: true });
  fs.symlinkSync('../../packages/lib', path.join(repo.dir, 'node_modules/@demo/lib'));
  fs.mkdirSync(path.join(repo.dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync('../@demo/lib/cli.js', path.join(repo.dir, 'node_modules/.bin/demo-lib'));
  repos.push(repo);
  return repo;
}

/** The module file Node loads for `request` from `dir`, relative to `root`, and what it exports. */
function resolveFrom(root: string, dir: string, request: string): { file: string; value: string } {
  const script = `const f = require.resolve(${JSON.stringify(request)}); console.log(JSON.stringify({ file: f, value: require(f) }))`;
  const out = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: dir, encoding: 'utf8' })) as {
    file: string;
    value: unknown;
  };
  return { file: path.relative(fs.realpathSync(root), fs.realpathSync(out.file)), value: JSON.stringify(out.value) };
}

describe('dependency folders in a worktree run', () => {
  it('resolves nested and hoisted node_modules packages exactly as the checkout does, and the project’s own packages from the run', async () => {
    const repo = monorepo();
    const workspace = await facade.startRun(repo.dir, { runId: 'd1', branchPrefix: 'lathe', allowDirty: false });
    const app = (root: string) => path.join(root, 'packages/app');
    for (const request of ['left-pad-x', 'shared-dep']) {
      // Same real file: the package is the user's installed one.
      const fromCheckout = resolveFrom(repo.dir, app(repo.dir), request);
      const fromRun = resolveFrom(repo.dir, app(workspace.workDir), request);
      expect(fromRun).toEqual(fromCheckout);
    }
    // The project's own package resolves to the run's copy, at the same place relative to its root.
    fs.writeFileSync(path.join(workspace.workDir, 'packages/lib/index.js'), "module.exports = 'lib v2 (the run)';\n");
    expect(resolveFrom(repo.dir, app(repo.dir), '@demo/lib')).toEqual({
      file: 'packages/lib/index.js',
      value: '"lib v1"',
    });
    expect(resolveFrom(workspace.workDir, app(workspace.workDir), '@demo/lib')).toEqual({
      file: 'packages/lib/index.js',
      value: '"lib v2 (the run)"',
    });
    // A workspace package's bin runs the run's code too.
    expect(execFileSync(path.join(workspace.workDir, 'node_modules/.bin/demo-lib'), { encoding: 'utf8' }).trim()).toBe(
      'lib v2 (the run)',
    );

    // Nothing but the run's own edit shows in its status; the user's checkout stays clean.
    expect(gitIn(workspace.workDir, 'status', '--porcelain', '--untracked-files=all')).toBe('M packages/lib/index.js');
    expect(gitIn(repo.dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('refuses edits and commits through the links, which point into the user’s checkout', async () => {
    const repo = monorepo();
    const workspace = await facade.startRun(repo.dir, { runId: 'd1', branchPrefix: 'lathe', allowDirty: false });
    const policy = defaultEditPolicy();
    for (const target of ['node_modules/shared-dep/index.js', 'packages/app/node_modules/left-pad-x/index.js']) {
      await expect(
        applyEditSet(
          workspace.workDir,
          { format: 'whole-file', changes: [{ path: target, before: null, after: 'owned\n' }] },
          policy,
        ),
      ).rejects.toMatchObject({
        code: 'EDIT_REJECTED',
        data: { rule: 'symlink-escape' },
      });
      await expect(facade.commitStep(workspace, [target], step)).rejects.toMatchObject({ code: 'INVALID_PATH' });
    }
    expect(fs.readFileSync(path.join(repo.dir, 'node_modules/shared-dep/index.js'), 'utf8')).toBe(
      "module.exports = 'hoisted shared-dep';\n",
    );
    expect(fs.readFileSync(path.join(repo.dir, 'packages/app/node_modules/left-pad-x/index.js'), 'utf8')).toBe(
      "module.exports = 'nested left-pad-x';\n",
    );
  });

  it('links a Python virtualenv so its interpreter finds the same installed module', async (context) => {
    const repo = monorepo();
    const venv = spawnSync('python3', ['-m', 'venv', '--without-pip', path.join(repo.dir, '.venv')], {
      encoding: 'utf8',
    });
    if (venv.status !== 0)
      return context.skip(`python3 -m venv is not available here: ${venv.stderr.trim().slice(0, 200)}`);
    const [sitePackages] = fs
      .readdirSync(path.join(repo.dir, '.venv/lib'))
      .map((name) => path.join(repo.dir, '.venv/lib', name, 'site-packages'));
    fs.writeFileSync(path.join(sitePackages as string, 'venv_only_mod.py'), "WHERE = 'the venv'\n");
    const workspace = await facade.startRun(repo.dir, { runId: 'd1', branchPrefix: 'lathe', allowDirty: false });
    const probe = (root: string) => {
      const out = execFileSync(
        path.join(root, '.venv/bin/python'),
        ['-c', 'import json, sys, venv_only_mod as m; print(json.dumps([m.__file__, m.WHERE, sys.prefix]))'],
        { cwd: root, encoding: 'utf8' },
      );
      const [file, where, prefix] = JSON.parse(out) as [string, string, string];
      return { file: fs.realpathSync(file), where, prefix };
    };
    const fromCheckout = probe(repo.dir);
    const fromRun = probe(workspace.workDir);
    expect(fromRun.file).toBe(fromCheckout.file);
    expect(fromRun.where).toBe('the venv');
    // The venv is found through the run's own path (pyvenv.cfg beside the link), not the checkout's.
    expect(fromRun.prefix).toBe(path.join(workspace.workDir, '.venv'));
  });
});
