import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { planInstall } from './installCommand';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = makeTempDir('lathe-install-');
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  return dir;
}

const WITH_DEPS = JSON.stringify({ name: 'p', devDependencies: { mocha: '^10' } });
const tools = (...present: string[]) => ({ has: (program: string) => present.includes(program) });
const ALL = tools('npm', 'pnpm', 'yarn');

describe('planInstall: the install the lockfile asks for, install scripts never run', () => {
  it.each([
    ['package-lock.json', {}, ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund']],
    ['npm-shrinkwrap.json', {}, ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund']],
    ['pnpm-lock.yaml', {}, ['pnpm', 'install', '--frozen-lockfile', '--ignore-scripts']],
    ['yarn.lock', {}, ['yarn', 'install', '--frozen-lockfile', '--ignore-scripts', '--non-interactive']],
    [
      'yarn.lock',
      { '.yarnrc.yml': 'nodeLinker: node-modules\n' },
      ['yarn', 'install', '--immutable', '--mode=skip-build'],
    ],
  ])('%s %j', (lockfile, extra, argv) => {
    const plan = planInstall(
      project({
        'package.json': WITH_DEPS,
        [lockfile]: lockfile === 'yarn.lock' ? '# yarn lockfile v1\n' : '{}',
        ...extra,
      }),
      ALL,
    );
    expect(plan).toMatchObject({ argv, lockfile, fallback: null, reason: `${lockfile}: ${argv.join(' ')}` });
  });

  it("tells yarn berry by its lockfile's __metadata, and lets packageManager pick among several lockfiles", () => {
    expect(
      planInstall(project({ 'package.json': WITH_DEPS, 'yarn.lock': '__metadata:\n  version: 6\n' }), ALL).argv,
    ).toContain('--immutable');
    const both = { 'package-lock.json': '{}', 'pnpm-lock.yaml': '' };
    expect(planInstall(project({ 'package.json': WITH_DEPS, ...both }), ALL).manager).toBe('npm');
    expect(
      planInstall(
        project({
          'package.json': JSON.stringify({ packageManager: 'pnpm@9.1.0', dependencies: { a: '1' } }),
          ...both,
        }),
        ALL,
      ).manager,
    ).toBe('pnpm');
  });

  it('falls back to npm install, saying so, when the package manager the lockfile names is missing', () => {
    const plan = planInstall(project({ 'package.json': WITH_DEPS, 'pnpm-lock.yaml': '' }), tools('npm'));
    expect(plan.argv).toEqual(['npm', 'install', '--ignore-scripts', '--no-audit', '--no-fund']);
    expect(plan.fallback).toBe(
      'pnpm-lock.yaml asks for pnpm, which is not installed (not on PATH): installing with `npm install` instead, which does not follow pnpm-lock.yaml (install pnpm for the locked versions)',
    );
    const none = planInstall(project({ 'package.json': WITH_DEPS, 'yarn.lock': '' }), tools());
    expect(none).toMatchObject({
      argv: null,
      manager: 'yarn',
      reason:
        'yarn.lock asks for yarn, which is not installed (not on PATH), nor is npm: nothing can install the dependencies',
    });
  });

  it('installs nothing for a package without dependencies or a Python project, and says why', () => {
    expect(planInstall(project({ 'package.json': '{"name":"p"}' }), ALL)).toMatchObject({
      argv: null,
      manager: null,
      reason: 'package.json declares no dependencies: nothing to install',
    });
    expect(planInstall(project({ 'pyproject.toml': '' }), ALL).reason).toBe(
      "a Python project (pyproject.toml): nothing to install; its tests run from the repository's top folder",
    );
    expect(planInstall(project({ 'package.json': WITH_DEPS }), ALL)).toMatchObject({
      argv: ['npm', 'install', '--ignore-scripts', '--no-audit', '--no-fund'],
      lockfile: null,
    });
  });
});
