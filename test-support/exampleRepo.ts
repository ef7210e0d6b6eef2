import fs from 'node:fs';
import path from 'node:path';
import { afterEach } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from './tempRepo';

export const APP_ROOT = path.resolve(import.meta.dirname, '..');
export const REPLAYS = path.join(APP_ROOT, 'resources', 'replays');

/** A committed copy of a bundled example repository in a fresh temp folder. */
export function makeExampleRepo(example: 'js-stats' | 'py-stats'): TempRepo {
  const repo = makeTempRepo({ prefix: `lathe-${example}-` });
  fs.cpSync(path.join(APP_ROOT, 'resources', 'examples', example), repo.dir, { recursive: true });
  repo.commitAll(`Example repository ${example}`);
  return repo;
}

/** Writes a replay transcript for a test and returns its `replay:` spec. */
export function writeReplay(dir: string, name: string, outputs: unknown[]): string {
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify({ outputs }, null, 2));
  return `replay:${file}`;
}

export function readReplay(name: string): { outputs: { role: string; json?: unknown }[] } {
  return JSON.parse(fs.readFileSync(path.join(REPLAYS, name), 'utf8')) as {
    outputs: { role: string; json?: unknown }[];
  };
}

/** Every path → content of a commit's tree, read with native git (what a user would see on checkout). */
export function treeAt(repo: TempRepo, ref: string): Record<string, string> {
  const files = repo.git('ls-tree', '-r', '--name-only', ref).split('\n').filter(Boolean);
  return Object.fromEntries(files.map((file) => [file, repo.git('show', `${ref}:${file}`)]));
}

/** A committed js-stats example plus a data folder, removed by the returned cleanup. */
export function makeRunFixture(example: 'js-stats' | 'py-stats' = 'js-stats'): {
  repo: TempRepo;
  dataDir: string;
  cleanup: () => void;
} {
  const repo = makeExampleRepo(example);
  const dataDir = makeTempDir('lathe-data-');
  return { repo, dataDir, cleanup: () => (repo.remove(), fs.rmSync(dataDir, { recursive: true, force: true })) };
}

/** A `setup()` for a test file: each call makes a run fixture, removed after the test that made it. */
export function runFixturePerTest(): () => { repo: TempRepo; dataDir: string } {
  const cleanup: (() => void)[] = [];
  afterEach(() => cleanup.splice(0).forEach((remove) => remove()));
  return () => {
    const fixture = makeRunFixture();
    cleanup.push(fixture.cleanup);
    return { repo: fixture.repo, dataDir: fixture.dataDir };
  };
}
