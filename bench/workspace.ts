/**
 * Workspace bench: `npx tsx bench/workspace.ts`. Prints a table and writes bench/results/workspace.json.
 * - commit per step: Lathe's commitStep vs native `git add && git commit` on a 20k-file repo
 * - Verifier overhead: verify() (bubblewrap, checkout fallback) vs the bare command
 * - repo summary of a generated 20k-file repo (target: under one second)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGitFacade } from '../electron/core/git/gitFacade';
import { createReadOnlyTools } from '../electron/core/tools/readOnlyTools';
import { verify } from '../electron/core/verifier/verify';
import { generateRepo, git } from './workspace/generateRepo';
import { round, summarize, time, type Timing } from './workspace/timing';

const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const STEPS = Number(process.env.BENCH_STEPS ?? 10);
const here = path.dirname(fileURLToPath(import.meta.url));
const cleanup: string[] = [];

async function commitBench(): Promise<Record<string, Timing | number>> {
  const repo = generateRepo(FILES, { commit: true });
  cleanup.push(repo);
  const targets = (step: number) => [`src/pkg${step % 40}/sub${step % 7}/bench-${step}.ts`, 'README.md'];
  const edit = (dir: string, step: number) => {
    for (const file of targets(step)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), `// step ${step}\nexport const v = ${step};\n`);
    }
  };

  const facade = createGitFacade();
  const start = await time(() => facade.startRun(repo, { runId: 'bench-wt', branchPrefix: 'lathe', allowDirty: false }));
  const worktreeRun = start.value;
  const lathe: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    edit(worktreeRun.workDir, step);
    lathe.push((await time(() => facade.commitStep(worktreeRun, targets(step), { runId: 'bench-wt', taskId: `T${step + 1}`, title: `step ${step}`, role: 'coder' }))).ms);
  }

  // The same steps by hand with native git, in a second worktree of the same repository.
  const nativeDir = path.join(os.tmpdir(), `lathe-bench-native-${process.pid}`);
  git(repo, 'worktree', 'add', '--quiet', '-b', 'native-bench', nativeDir, 'main');
  cleanup.push(nativeDir);
  const native: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    edit(nativeDir, step);
    native.push(
      (await time(() => {
        git(nativeDir, 'add', '--all', '--', ...targets(step));
        git(nativeDir, 'commit', '--quiet', '--no-gpg-sign', '--no-verify', '-m', `lathe(T${step + 1}): step ${step}`, '--', ...targets(step));
      })).ms,
    );
  }

  // isomorphic-git alone (no git CLI): the in-place fallback, on its own copy of the repository.
  const isoRepo = generateRepo(FILES, { commit: true });
  cleanup.push(isoRepo);
  const isoFacade = createGitFacade({ useNativeGit: false });
  const isoStart = await time(() => isoFacade.startRun(isoRepo, { runId: 'bench-iso', branchPrefix: 'lathe', allowDirty: false }));
  const iso: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    edit(isoRepo, step);
    iso.push((await time(() => isoFacade.commitStep(isoStart.value, targets(step), { runId: 'bench-iso', taskId: `T${step + 1}`, title: `step ${step}`, role: 'coder' }))).ms);
  }
  const fsck = spawnSync('git', ['fsck', '--strict', '--no-progress', '--no-dangling'], { cwd: repo, encoding: 'utf8' });
  if (fsck.status !== 0 || fsck.stdout.trim()) throw new Error(`fsck failed after the bench: ${fsck.stdout}${fsck.stderr}`);
  const latheTiming = summarize(lathe);
  const nativeTiming = summarize(native);
  const isoTiming = summarize(iso);
  return {
    startRunWorktreeMs: round(start.ms),
    startRunInPlaceIsomorphicMs: round(isoStart.ms),
    latheWorktree: latheTiming,
    latheInPlaceIsomorphicOnly: isoTiming,
    nativeGit: nativeTiming,
    ratioWorktree: round(latheTiming.medianMs / nativeTiming.medianMs),
    ratioIsomorphicOnly: round(isoTiming.medianMs / nativeTiming.medianMs),
  };
}

async function verifierBench(): Promise<Record<string, Timing | number>> {
  const repo = generateRepo(50, { commit: true });
  cleanup.push(repo);
  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-art-'));
  cleanup.push(artifacts);
  const argv = [process.execPath, '-e', 'console.log("ok")'];
  const runs = 9;
  const bare: number[] = [];
  const sandboxed: number[] = [];
  const checkout: number[] = [];
  const commit = git(repo, 'rev-parse', 'HEAD');
  for (let index = 0; index < runs; index++) {
    bare.push((await time(() => spawnSync(argv[0] as string, argv.slice(1), { cwd: repo }))).ms);
    const inSandbox = await time(() => verify({ workDir: repo, argv, timeoutMs: 30_000, artifactRoot: artifacts, isolation: 'bwrap' }));
    if (inSandbox.value.status !== 'PASS') throw new Error(`sandboxed run failed: ${inSandbox.value.reason}`);
    sandboxed.push(inSandbox.ms);
    const inCheckout = await time(() => verify({ workDir: repo, argv, timeoutMs: 30_000, artifactRoot: artifacts, isolation: 'checkout', commit }));
    if (inCheckout.value.status !== 'PASS') throw new Error(`checkout run failed: ${inCheckout.value.reason}`);
    checkout.push(inCheckout.ms);
  }
  const bareTiming = summarize(bare);
  const bwrapTiming = summarize(sandboxed);
  const checkoutTiming = summarize(checkout);
  return {
    bareCommand: bareTiming,
    verifyBwrap: bwrapTiming,
    verifyCheckout: checkoutTiming,
    overheadBwrapMs: round(bwrapTiming.medianMs - bareTiming.medianMs),
    overheadCheckoutMs: round(checkoutTiming.medianMs - bareTiming.medianMs),
  };
}

async function summaryBench(): Promise<Record<string, Timing | number>> {
  const repo = generateRepo(FILES, { commit: false });
  cleanup.push(repo);
  const tools = createReadOnlyTools(repo);
  const cold = await time(() => tools.repoSummary());
  const warm: number[] = [];
  for (let index = 0; index < 5; index++) warm.push((await time(() => tools.repoSummary())).ms);
  return { files: FILES, coldMs: round(cold.ms), warm: summarize(warm), summaryBytes: Buffer.byteLength(cold.value), summaryLines: cold.value.split('\n').length };
}

function row(name: string, value: string, note = ''): string {
  return `${name.padEnd(44)} ${value.padStart(12)}  ${note}`;
}

async function main(): Promise<void> {
  const results = { machine: { cpus: os.cpus().length, node: process.version, platform: `${process.platform} ${os.release()}` }, files: FILES, steps: STEPS, commit: {}, verifier: {}, summary: {} };
  try {
    results.commit = await commitBench();
    results.verifier = await verifierBench();
    results.summary = await summaryBench();
  } finally {
    for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
  }
  const c = results.commit as Record<string, Timing & number>;
  const v = results.verifier as Record<string, Timing & number>;
  const s = results.summary as Record<string, Timing & number>;
  const lines = [
    row('measure', 'median', 'notes'),
    row(`commit per step, native git (${FILES} files)`, `${c.nativeGit?.medianMs} ms`, 'git add + git commit -- paths'),
    row('commit per step, Lathe worktree run', `${c.latheWorktree?.medianMs} ms`, `ratio ${c.ratioWorktree}× native`),
    row('commit per step, Lathe isomorphic-git only', `${c.latheInPlaceIsomorphicOnly?.medianMs} ms`, `ratio ${c.ratioIsomorphicOnly}× native`),
    row('startRun (worktree add)', `${c.startRunWorktreeMs} ms`, 'once per run'),
    row('bare command (node -e)', `${v.bareCommand?.medianMs} ms`, ''),
    row('verify() in bubblewrap', `${v.verifyBwrap?.medianMs} ms`, `overhead ${v.overheadBwrapMs} ms`),
    row('verify() checkout fallback', `${v.verifyCheckout?.medianMs} ms`, `overhead ${v.overheadCheckoutMs} ms`),
    row(`repo summary, ${FILES} files (warm)`, `${s.warm?.medianMs} ms`, `cold ${s.coldMs} ms, ${s.summaryBytes} bytes`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const out = path.join(here, 'results', 'workspace.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)}\n`);
}

await main();
