/**
 * The repo map on a generated 20,000-file repository: a cold build (every file read and parsed), a
 * warm build from the on-disk cache in a fresh process state, a warm build from memory (nothing
 * changed: what each agent call of a run pays) and one after a file changed. The 1-minute load average
 * is recorded before each run: the machine is shared. Goals: cold ≤ 5 s, warm ≤ 200 ms.
 * Usage: npm run bench:repomap [-- --files N --runs N]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildRepoMap, clearRepoMapMemory } from '../electron/core/context/index';
import { figure, report } from './lib/results';
import { generateRepo } from './workspace/generateRepo';
import { summarize, time } from './workspace/timing';

const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
};

async function main(): Promise<void> {
  const fileCount = argument('files', 20_000);
  const runs = argument('runs', 5);
  const repo = generateRepo(fileCount, { commit: true });
  const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-map-'));
  const cold: number[] = [];
  const warmDisk: number[] = [];
  const warmMemory: number[] = [];
  const warmChanged: number[] = [];
  const load: number[] = [];
  let files = 0;
  let symbols = 0;
  try {
    for (let run = 0; run < runs; run++) {
      const cacheFile = path.join(cacheDir, `map-${run}.json`);
      load.push(os.loadavg()[0] ?? 0);
      clearRepoMapMemory();
      const first = await time(() => buildRepoMap(repo, { cacheFile }));
      cold.push(first.ms);
      files = first.value.files.length;
      symbols = first.value.files.reduce((sum, file) => sum + file.symbols.length, 0);
      clearRepoMapMemory();
      warmDisk.push((await time(() => buildRepoMap(repo, { cacheFile }))).ms);
      warmMemory.push((await time(() => buildRepoMap(repo, { cacheFile }))).ms);
      fs.appendFileSync(path.join(repo, 'README.md'), `Run ${run}.\n`);
      warmChanged.push((await time(() => buildRepoMap(repo, { cacheFile }))).ms);
    }
  } finally {
    fs.rmSync(repo, { recursive: true, force: true });
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
  const c = summarize(cold);
  const d = summarize(warmDisk);
  const m = summarize(warmMemory);
  const changed = summarize(warmChanged);
  report({
    bench: 'repomap',
    figures: [
      figure('files', 'files mapped', files, 'files'),
      figure('symbols', 'symbols found', symbols, 'symbols'),
      figure('cold_ms', `cold build, median of ${runs}`, c.medianMs, 'ms', { max: 5000 }),
      figure('warm_disk_ms', `warm build from the disk cache, median of ${runs}`, d.medianMs, 'ms', { max: 200 }),
      figure('warm_memory_ms', `warm build from memory, median of ${runs}`, m.medianMs, 'ms', { max: 200 }),
      figure(
        'warm_changed_ms',
        `warm build from memory after a file changed, median of ${runs}`,
        changed.medianMs,
        'ms',
        { max: 200 },
      ),
      figure('load_average', 'machine load (1-minute average) before the runs, median', summarize(load).medianMs, ''),
    ],
    details: { cold, warmDisk, warmMemory, warmChanged, load },
  });
}

await main();
