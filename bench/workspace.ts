/**
 * Workspace bench: `npx tsx bench/workspace.ts`. Prints a table and writes bench/results/workspace.json.
 * - commit per step: Lathe's commitStep vs native `git add && git commit` on a 20k-file repo
 * - Verifier overhead: verify() of /bin/true (bubblewrap on a checkout and on a run worktree, checkout
 *   fallback) vs a bare spawn of it, and bubblewrap alone; BENCH_ONLY=verifier runs just this part
 * - repo summary of a generated 20k-file repo (target: under one second)
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGitFacade, type LatheGitFacade } from '../electron/core/git/gitFacade';
import type { RunWorkspace } from '../electron/core/git/types';
import { createReadOnlyTools } from '../electron/core/tools/readOnlyTools';
import { bwrapArgv, readOnlyRootsFor, SANDBOX_TMP_BYTES } from '../electron/core/verifier/sandbox';
import { sandboxView } from '../electron/core/verifier/sandboxView';
import { verify } from '../electron/core/verifier/verify';
import { generateRepo, git } from './workspace/generateRepo';
import { workspaceTable } from './workspace/table';
import { round, summarize, time, type Timing } from './workspace/timing';

const FILES = Number(process.env.BENCH_FILES ?? 20_000);
const STEPS = Number(process.env.BENCH_STEPS ?? 10);
const here = path.dirname(fileURLToPath(import.meta.url));
const cleanup: string[] = [];

/** The files step `step` writes: a new module and the README, so each commit touches an old and a new path. */
const stepTargets = (step: number) => [`src/pkg${step % 40}/sub${step % 7}/bench-${step}.ts`, 'README.md'];

function editStep(dir: string, step: number): void {
  for (const file of stepTargets(step)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), `// step ${step}\nexport const v = ${step};\n`);
  }
}

/** Each step edited in `dir` and committed by the facade's commitStep, timed. */
async function latheCommits(facade: LatheGitFacade, run: RunWorkspace, dir: string, runId: string): Promise<number[]> {
  const samples: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    editStep(dir, step);
    samples.push(
      (
        await time(() =>
          facade.commitStep(run, stepTargets(step), {
            runId,
            taskId: `T${step + 1}`,
            title: `step ${step}`,
            role: 'coder',
          }),
        )
      ).ms,
    );
  }
  return samples;
}

/** The same steps by hand with native git, in a second worktree of the same repository. */
async function nativeCommits(repo: string): Promise<number[]> {
  const nativeDir = path.join(os.tmpdir(), `lathe-bench-native-${process.pid}`);
  git(repo, 'worktree', 'add', '--quiet', '-b', 'native-bench', nativeDir, 'main');
  cleanup.push(nativeDir);
  const native: number[] = [];
  for (let step = 0; step < STEPS; step++) {
    editStep(nativeDir, step);
    native.push(
      (
        await time(() => {
          git(nativeDir, 'add', '--all', '--', ...stepTargets(step));
          git(
            nativeDir,
            'commit',
            '--quiet',
            '--no-gpg-sign',
            '--no-verify',
            '-m',
            `lathe(T${step + 1}): step ${step}`,
            '--',
            ...stepTargets(step),
          );
        })
      ).ms,
    );
  }
  return native;
}

function assertFsck(repo: string): void {
  const fsck = spawnSync('git', ['fsck', '--strict', '--no-progress', '--no-dangling'], {
    cwd: repo,
    encoding: 'utf8',
  });
  if (fsck.status !== 0 || fsck.stdout.trim())
    throw new Error(`fsck failed after the bench: ${fsck.stdout}${fsck.stderr}`);
}

async function commitBench(): Promise<Record<string, Timing | number>> {
  const repo = generateRepo(FILES, { commit: true });
  cleanup.push(repo);
  const facade = createGitFacade();
  const start = await time(() =>
    facade.startRun(repo, { runId: 'bench-wt', branchPrefix: 'lathe', allowDirty: false }),
  );
  const lathe = await latheCommits(facade, start.value, start.value.workDir, 'bench-wt');
  const native = await nativeCommits(repo);

  // isomorphic-git alone (no git CLI): the in-place fallback, on its own copy of the repository.
  const isoRepo = generateRepo(FILES, { commit: true });
  cleanup.push(isoRepo);
  const isoFacade = createGitFacade({ useNativeGit: false });
  const isoStart = await time(() =>
    isoFacade.startRun(isoRepo, { runId: 'bench-iso', branchPrefix: 'lathe', allowDirty: false }),
  );
  const iso = await latheCommits(isoFacade, isoStart.value, isoRepo, 'bench-iso');
  assertFsck(repo);
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

/** A bare spawn the way the Verifier spawns: piped output, own process group, resolved on exit. */
function spawnAndWait(argv: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0] as string, argv.slice(1), { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

type Rounds<K extends string> = { samples: Record<K | 'bare', number[]>; over: (name: K) => number };

/**
 * Every variant run once to warm up, then `count` rounds of the bare spawn followed by each variant;
 * `over` is a variant's median per-round difference to the bare spawn.
 */
async function interleavedRounds<K extends string>(
  bare: () => Promise<void>,
  tasks: Record<K, () => Promise<void>>,
  count: number,
): Promise<Rounds<K>> {
  const samples = {
    bare: [] as number[],
    ...Object.fromEntries(Object.keys(tasks).map((name) => [name, [] as number[]])),
  } as Record<K | 'bare', number[]>;
  for (const task of Object.values<() => Promise<void>>(tasks)) await task();
  for (let index = 0; index < count; index++) {
    samples.bare.push((await time(bare)).ms);
    for (const [name, task] of Object.entries<() => Promise<void>>(tasks))
      samples[name as K].push((await time(task)).ms);
  }
  const over = (name: K) => summarize(samples[name].map((ms, index) => ms - (samples.bare[index] as number))).medianMs;
  return { samples, over };
}

/** bubblewrap's own argv for `argv` in `repo`, as verify() would build it, without verify() around it. */
function bwrapAloneArgv(repo: string, artifacts: string, argv: string[]): string[] {
  const view = sandboxView({
    env: { PATH: process.env.PATH },
    commands: [argv],
    cwd: repo,
    readPaths: [],
    shown: [repo],
  });
  return bwrapArgv({
    readOnly: readOnlyRootsFor(repo),
    writableWorkDir: null,
    protect: [],
    writable: artifacts,
    view,
    tmpBytes: SANDBOX_TMP_BYTES,
    cwd: repo,
    argv,
  });
}

async function verified(request: Parameters<typeof verify>[0]): Promise<void> {
  const result = await verify(request);
  if (result.status !== 'PASS')
    throw new Error(`${request.isolation ?? 'auto'} run of ${request.workDir} failed: ${result.reason}`);
}

/**
 * verify() of `/bin/true` against a bare spawn of it, interleaved run by run (the machine is shared:
 * each round measures every variant within a few hundred ms of the others) and reported as the median
 * of the per-round differences. "bubblewrap alone" is the sandbox's own price, the floor of the figure.
 */
async function verifierBench(): Promise<Record<string, Timing | number>> {
  const repo = generateRepo(50, { commit: true });
  cleanup.push(repo);
  const run = await createGitFacade().startRun(repo, {
    runId: 'bench-verify',
    branchPrefix: 'lathe',
    allowDirty: false,
  });
  const artifacts = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-bench-art-'));
  cleanup.push(artifacts);
  const argv = ['/bin/true'];
  const runs = Number(process.env.BENCH_VERIFY_RUNS ?? 60);
  const commit = git(repo, 'rev-parse', 'HEAD');
  const sandboxOnly = bwrapAloneArgv(repo, artifacts, argv);
  const request = { argv, timeoutMs: 30_000, artifactRoot: artifacts, isolation: 'bwrap' as const };
  const sandboxed = {
    bwrapAlone: () => spawnAndWait(sandboxOnly, repo),
    verifyBwrap: () => verified({ ...request, workDir: repo }),
    verifyBwrapWorktree: () => verified({ ...request, workDir: run.workDir }),
    // As a run calls it after its own step commit: the engine vouches for the tree (decision 67).
    verifyBwrapWorktreeVouched: () => verified({ ...request, workDir: run.workDir, workTreeAt: run.baseCommit }),
  };
  // The fallback's disk-heavy copy would disturb the rounds above: it gets rounds of its own.
  const fallback = {
    verifyCheckout: () => verified({ ...request, workDir: repo, isolation: 'checkout', commit }),
  };
  const bare = () => spawnAndWait(argv, repo);
  const main = await interleavedRounds(bare, sandboxed, runs);
  const slow = await interleavedRounds(bare, fallback, Math.max(5, Math.round(runs / 4)));
  return {
    runs,
    bareSpawn: summarize(main.samples.bare),
    bwrapAlone: summarize(main.samples.bwrapAlone),
    verifyBwrap: summarize(main.samples.verifyBwrap),
    verifyBwrapWorktree: summarize(main.samples.verifyBwrapWorktree),
    verifyBwrapWorktreeVouched: summarize(main.samples.verifyBwrapWorktreeVouched),
    verifyCheckout: summarize(slow.samples.verifyCheckout),
    bwrapAloneOverheadMs: main.over('bwrapAlone'),
    overheadBwrapMs: main.over('verifyBwrap'),
    overheadBwrapWorktreeMs: main.over('verifyBwrapWorktree'),
    overheadBwrapWorktreeVouchedMs: main.over('verifyBwrapWorktreeVouched'),
    overheadCheckoutMs: slow.over('verifyCheckout'),
  };
}

async function summaryBench(): Promise<Record<string, Timing | number>> {
  const repo = generateRepo(FILES, { commit: false });
  cleanup.push(repo);
  const tools = createReadOnlyTools(repo);
  const cold = await time(() => tools.repoSummary());
  const warm: number[] = [];
  for (let index = 0; index < 5; index++) warm.push((await time(() => tools.repoSummary())).ms);
  return {
    files: FILES,
    coldMs: round(cold.ms),
    warm: summarize(warm),
    summaryBytes: Buffer.byteLength(cold.value),
    summaryLines: cold.value.split('\n').length,
  };
}

/** The JSON to fill: BENCH_ONLY runs one part and keeps the other parts' last figures. */
function startingResults(out: string, only: string | undefined) {
  const previous =
    only && fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as Record<string, unknown>) : {};
  return {
    commit: {},
    verifier: {},
    summary: {},
    ...previous,
    machine: {
      cpus: os.cpus().length,
      node: process.version,
      platform: `${process.platform} ${os.release()}`,
      loadAverage: os.loadavg().map(round),
    },
    files: FILES,
    steps: STEPS,
  };
}

async function main(): Promise<void> {
  const out = path.join(here, 'results', 'workspace.json');
  const only = process.env.BENCH_ONLY;
  const results = startingResults(out, only);
  try {
    if (!only || only === 'commit') results.commit = await commitBench();
    if (!only || only === 'verifier') results.verifier = await verifierBench();
    if (!only || only === 'summary') results.summary = await summaryBench();
  } finally {
    for (const dir of cleanup) fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(`${workspaceTable(results, FILES, only)}\n`);
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(
    `wrote ${path.relative(process.cwd(), out)} (load average ${results.machine.loadAverage.join(', ')}; the machine is shared)\n`,
  );
}

await main();
