import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const APP_ROOT = path.resolve(import.meta.dirname, '..');
export const BUILT = {
  main: path.join(APP_ROOT, 'out', 'main', 'index.js'),
  preload: path.join(APP_ROOT, 'out', 'preload', 'index.cjs'),
  rendererIndex: path.join(APP_ROOT, 'out', 'renderer', 'index.html'),
};

/** What `electron-vite build` reads: a change in any of these makes `out/` stale. */
const INPUTS = [
  'electron/main',
  'electron/preload',
  'electron/core',
  'shared',
  'renderer',
  'electron.vite.config.ts',
  'package.json',
];
const LOCK = path.join(APP_ROOT, '.cache', 'app-build.lock');

function newestInput(): number {
  let newest = 0;
  const visit = (entry: string) => {
    const stat = fs.statSync(entry);
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(entry)) if (name !== 'node_modules') visit(path.join(entry, name));
    } else if (!/\.(test|spec)\.tsx?$/.test(entry)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const input of INPUTS) visit(path.join(APP_ROOT, input));
  return newest;
}

function isFresh(): boolean {
  const outputs = Object.values(BUILT);
  if (!outputs.every((file) => fs.existsSync(file))) return false;
  const oldestOutput = Math.min(...outputs.map((file) => fs.statSync(file).mtimeMs));
  return oldestOutput >= newestInput();
}

function holderAlive(): boolean {
  try {
    const pid = Number(fs.readFileSync(path.join(LOCK, 'pid'), 'utf8'));
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Makes sure `out/` holds a build of the current sources, building it once if not. `npm test` builds
 * before the unit stage, so there this only checks; test files running in parallel share one build
 * through a lock, and wait for it rather than building twice.
 */
export function ensureAppBuilt(): void {
  const deadline = Date.now() + 5 * 60_000;
  while (!isFresh()) {
    fs.mkdirSync(path.dirname(LOCK), { recursive: true });
    try {
      fs.mkdirSync(LOCK);
    } catch {
      if (!holderAlive()) fs.rmSync(LOCK, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`waited 5 minutes for another build of out/ (lock ${LOCK})`);
      else sleep(250);
      continue;
    }
    try {
      fs.writeFileSync(path.join(LOCK, 'pid'), String(process.pid));
      if (isFresh()) return;
      const cli = path.join(APP_ROOT, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
      const build = spawnSync(process.execPath, [cli, 'build'], { cwd: APP_ROOT, encoding: 'utf8' });
      if (build.status !== 0)
        throw new Error(`electron-vite build failed (exit ${build.status}):\n${build.stdout}\n${build.stderr}`);
    } finally {
      fs.rmSync(LOCK, { recursive: true, force: true });
    }
  }
}
