/**
 * The JavaScript test runners Lathe does not ship (ava, tap, tape, jasmine, uvu, qunit), installed
 * from the npm registry into a cache folder the first time a test or the parity bench asks for them
 * (decision 94). Pinned by test-support/runners/package-lock.json; the folder is named by the lock's
 * hash, so a changed pin installs afresh and an unchanged one never reaches the network again.
 * `npx tsx test-support/runnerCache.ts` fills it ahead of time (CI does, in .ci/run).
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PINS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'runners');
const COMPLETE = '.lathe-complete';

export type RunnerCache = { dir: string; bin: (name: string) => string } | { unavailable: string };

/** Where the runners live: `$LATHE_RUNNER_CACHE` or `~/.cache/lathe/test-runners`, then the lock's hash. */
export function runnerCacheDir(): string {
  const lock = fs.readFileSync(path.join(PINS_DIR, 'package-lock.json'));
  const hash = crypto
    .createHash('sha256')
    .update(fs.readFileSync(path.join(PINS_DIR, 'package.json')))
    .update(lock)
    .digest('hex')
    .slice(0, 12);
  const root = process.env.LATHE_RUNNER_CACHE ?? path.join(os.homedir(), '.cache', 'lathe', 'test-runners');
  return path.join(root, hash);
}

function ready(dir: string): RunnerCache {
  return { dir, bin: (name) => path.join(dir, 'node_modules', '.bin', name) };
}

/**
 * The cache, installed with `npm ci --ignore-scripts` when absent. Several test processes may ask at
 * once: each installs into its own folder and renames it into place, and a loser uses the winner's.
 * `{ unavailable }` says why when the registry cannot be reached (npm's own last lines).
 */
export function ensureRunnerCache(): RunnerCache {
  const dir = runnerCacheDir();
  if (fs.existsSync(path.join(dir, COMPLETE))) return ready(dir);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const staging = fs.mkdtempSync(`${dir}.installing-`);
  try {
    for (const file of ['package.json', 'package-lock.json'])
      fs.copyFileSync(path.join(PINS_DIR, file), path.join(staging, file));
    const npm = spawnSync(
      'npm',
      ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'],
      { cwd: staging, encoding: 'utf8', timeout: 600_000 },
    );
    if (npm.status !== 0) {
      const lines = `${npm.stderr ?? ''}${npm.stdout ?? ''}`.trim().split('\n');
      // npm's cause (`code ECONNREFUSED`, `request to … failed`) comes before its advice and log path.
      const cause = lines.filter((line) => /\b(code|errno|request to|network)\b/i.test(line)).slice(0, 2);
      const said = (cause.length > 0 ? cause : lines.slice(-3)).join(' / ');
      return {
        unavailable: `npm ci of test-support/runners failed (${npm.error ? npm.error.message : `exit ${npm.status}`}): ${said || 'no output'} — is the npm registry reachable?`,
      };
    }
    fs.writeFileSync(path.join(staging, COMPLETE), `${new Date().toISOString()}\n`);
    try {
      fs.renameSync(staging, dir);
    } catch (error) {
      if (!fs.existsSync(path.join(dir, COMPLETE))) throw error;
    }
    return ready(dir);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Whether a missing cache fails a test instead of skipping it: CI sets LATHE_REQUIRE_RUNNERS=1 after
 * filling the cache, so a registry outage there is a red test, not a silent skip.
 */
export const runnersRequired = process.env.LATHE_REQUIRE_RUNNERS === '1';

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cache = ensureRunnerCache();
  if ('unavailable' in cache) {
    process.stderr.write(`${cache.unavailable}\n`);
    process.exitCode = 1;
  } else {
    process.stdout.write(`test runners ready in ${cache.dir}\n`);
  }
}
