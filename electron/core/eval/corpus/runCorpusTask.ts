import fs from 'node:fs';
import path from 'node:path';
import type { RunConfig } from '../../../../shared/engine/runConfig';
import type { RunState } from '../../../../shared/engine/runState';
import { LatheError } from '../../../../shared/errors';
import { splitCommand } from '../../config/resolveConfig';
import { createDefaultDeps } from '../../engine/defaultDeps';
import { runNativeGit } from '../../git/nativeGit';
import { reusedBareRun, type VerificationCache, type VerificationCacheStats } from './verificationCache';
import type { EngineDeps } from '../../engine/engineDeps';
import { isBareOracleSpec, oracleSpecFor } from '../../llm/modelSpec';
import { evalRunConfig, modelForTask, runBasics, startEvalRun, type EvalRunSettings } from '../evalRun';
import {
  BARE_RUN_FORM,
  bareResult,
  fixedCommit,
  runBareTests,
  sameTree,
  type BareRun,
  type BareTestResult,
} from './bareTests';
import {
  faultJournalPath,
  faultRun,
  readFaultJournal,
  spoiledSpec,
  writerAttempts,
  type CorpusFaults,
} from './corpusFaults';
import { describeCounts, sameCounts, type CorpusTaskLine } from './corpusReport';
import { branchDamage, fewerTests } from './damage';
import { parseGoldPatch } from '../../llm/oracle/goldPatch';
import type { CorpusTask } from './corpusTasks';
import { preparedTaskRepo } from './preparedRepo';
import { isMissing } from '../../fsErrors';

export interface CorpusRunSettings extends EvalRunSettings {
  corpusDir: string;
  /** Every role's model. `oracle:` alone means this task's gold patch; `{task}` is the task id. */
  model?: string;
  roleModels?: Partial<Record<string, string>>;
  editFormat?: RunConfig['edit_format'];
  /** Prepared task repositories (materialised and set up once). */
  cacheDir?: string;
  /** Scratch space for this eval: Verifier artifacts, gold patch files. */
  workDir: string;
  /** Each run's folder is copied to `<outDir>/tasks/<task>/<workflow>-<format>/`. */
  outDir: string | null;
  /** Spoil the oracle's writer answers (only `oracle:` specs carry them; docs/eval.md, "Faults"). */
  faults?: CorpusFaults;
  /** Leave the run branch in the task repository (default: undone after grading). */
  keepRuns?: boolean;
  bareTimeoutMs?: number;
  /** Answer a verification of a tree already verified in this process from its result (decision 98; eval only). */
  verificationCache?: VerificationCache;
}

/**
 * `oracle:` names no file: the harness gives it this task's gold patch, kept outside the repository.
 * With `faults`, an oracle spec also carries the fault settings and the journal it writes to.
 */
export function modelSpecForTask(
  spec: string,
  task: CorpusTask,
  workDir: string,
  faults?: { settings: CorpusFaults; journal: string },
): string {
  if (!isBareOracleSpec(spec))
    return spoiledSpec(modelForTask(spec, task.id), faults?.settings, task.id, faults?.journal ?? '');
  const file = path.join(workDir, 'gold', `${task.id}.patch`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, task.gold_patch.endsWith('\n') ? task.gold_patch : `${task.gold_patch}\n`);
  return spoiledSpec(oracleSpecFor(file), faults?.settings, task.id, faults?.journal ?? '');
}

/** This run's fault journal: named by task, workflow and format, so runs in one work folder never share one. */
function journalFor(
  task: CorpusTask,
  settings: CorpusRunSettings,
): { settings: CorpusFaults; journal: string } | undefined {
  return (
    settings.faults && {
      settings: settings.faults,
      journal: faultJournalPath(settings.workDir, task.id, settings.workflow, settings.editFormat ?? 'default'),
    }
  );
}

export function corpusRunConfig(task: CorpusTask, repoDir: string, settings: CorpusRunSettings): RunConfig {
  const faults = journalFor(task, settings);
  const roleModels = Object.fromEntries(
    Object.entries(settings.roleModels ?? {}).flatMap(([role, spec]) =>
      spec ? [[role, modelSpecForTask(spec, task, settings.workDir, faults)]] : [],
    ),
  );
  const config = evalRunConfig(settings, repoDir, {
    model: settings.model === undefined ? undefined : modelSpecForTask(settings.model, task, settings.workDir, faults),
    roleModels,
    editFormat: settings.editFormat,
    timeLimitMs: settings.timeLimitMs,
    testCommand: splitCommand(task.test_command),
  });
  // The task's own test command is the operator's, not an agent's: the allowlist (dev-agent) accepts it as written.
  const argv = splitCommand(task.test_command);
  const rule = argv.slice(0, argv[0] === 'sh' ? 2 : 1).join(' ');
  return { ...config, shell_allowlist: [...new Set([...config.shell_allowlist, rule])] };
}

/** The fixed tree's bare run is the same for every workflow and format: run once per task, its output kept. */
async function fixedTests(
  repoDir: string,
  home: string,
  fixed: string,
  task: CorpusTask,
  settings: CorpusRunSettings,
): Promise<BareTestResult> {
  const cache = path.join(home, 'fixed-run.json');
  try {
    const cached = JSON.parse(fs.readFileSync(cache, 'utf8')) as { command: string; form?: string; run: BareRun };
    if (
      cached.command === task.test_command &&
      cached.form === BARE_RUN_FORM &&
      cached.run.commit === fixed &&
      !cached.run.timed_out &&
      typeof cached.run.output === 'string'
    )
      return bareResult(cached.run);
  } catch (error) {
    // Not measured yet, or a record cut off by a kill: measure it.
    if (!isMissing(error) && !(error instanceof SyntaxError)) throw error;
  }
  const run = await runBareTests(repoDir, fixed, task.test_command, {
    timeoutMs: settings.bareTimeoutMs,
    signal: settings.signal,
  });
  fs.writeFileSync(cache, `${JSON.stringify({ command: task.test_command, form: BARE_RUN_FORM, run })}\n`);
  return bareResult(run);
}

const formatOf = (config: RunConfig) => config.edit_format;

/** The task's line before anything ran: what an error at any point still reports. */
function emptyLine(task: CorpusTask, settings: CorpusRunSettings): CorpusTaskLine {
  return {
    task: task.id,
    repo: task.repo,
    workflow: settings.workflow,
    edit_format: settings.editFormat ?? 'default',
    model: settings.model ?? null,
    green: false,
    faithful: false,
    miss: null,
    run: null,
    run_tests: null,
    head_tests: null,
    fixed_tests: null,
    attempts: null,
    damage: null,
    faults: faultRun(settings.faults),
    faults_applied: [],
    faults_skipped: [],
    most_identical_answers: 0,
    setup_note: null,
    verifications: null,
    tokens: null,
    wall_ms: 0,
    error: null,
  };
}

/** This run's fault journal, emptied: a journal left by an earlier run of the same task must not count. */
function freshJournal(task: CorpusTask, settings: CorpusRunSettings): string | undefined {
  const journal = journalFor(task, settings)?.journal;
  if (journal) {
    fs.mkdirSync(path.dirname(journal), { recursive: true });
    fs.rmSync(journal, { force: true });
  }
  return journal;
}

/** The task's tests bare on the run's head: the fixed tree's result when the head is that tree. */
async function headTests(
  repoDir: string,
  head: string,
  fixed: { commit: string; result: BareTestResult },
  task: CorpusTask,
  settings: CorpusRunSettings,
): Promise<BareTestResult> {
  const headTree = settings.verificationCache ? await treeOf(repoDir, head) : null;
  if (head === fixed.commit || (await sameTree(repoDir, head, fixed.commit))) return { ...fixed.result, commit: head };
  const run = await reusedBareRun(
    settings.verificationCache,
    headTree && `${repoDir}\u0000${headTree}\u0000${task.test_command}`,
    () =>
      runBareTests(repoDir, head, task.test_command, { timeoutMs: settings.bareTimeoutMs, signal: settings.signal }),
  );
  return { ...bareResult(run), commit: head };
}

/** What the run did to the branch beyond the gold patch's files, measured before the undo takes it away. */
async function goldDamage(
  task: CorpusTask,
  prepared: { dir: string; commit: string },
  head: string,
  counts: { head: BareTestResult['counts']; fixed: BareTestResult['counts'] },
): Promise<CorpusTaskLine['damage']> {
  const gold = parseGoldPatch(task.gold_patch);
  if (!gold.ok) throw new LatheError('CORPUS_GOLD_PATCH', `task ${task.id}: ${gold.message}`, { task: task.id });
  return branchDamage(prepared.dir, prepared.commit, head, gold.patch, counts);
}

/** The writer's answers and the faults its journal records as applied and skipped. */
function faultFields(
  runDir: string,
  journal: string | undefined,
): Pick<CorpusTaskLine, 'attempts' | 'faults_applied' | 'faults_skipped' | 'most_identical_answers'> {
  const spoiled = journal ? readFaultJournal(journal) : null;
  return {
    attempts: writerAttempts(runDir),
    faults_applied: spoiled?.applied ?? [],
    faults_skipped: spoiled?.skipped ?? [],
    most_identical_answers: spoiled?.mostIdentical ?? 0,
  };
}

/**
 * One corpus task in one workflow: the prepared repository, a real Lathe run on it, then the task's
 * test command bare on the run branch and on the fixed tree. The run is undone afterwards, so the
 * next workflow starts from the same checkout.
 */
export async function runCorpusTask(task: CorpusTask, settings: CorpusRunSettings): Promise<CorpusTaskLine> {
  const started = Date.now();
  let line = emptyLine(task, settings);
  try {
    const prepared = await preparedTaskRepo(settings.corpusDir, task, {
      cacheDir: settings.cacheDir,
      signal: settings.signal,
    });
    const config = corpusRunConfig(task, prepared.dir, settings);
    line = { ...line, edit_format: formatOf(config), setup_note: prepared.setupNote };
    const fixed = await fixedCommit(prepared.dir, prepared.commit, task.gold_patch, settings.workDir);
    const fixedResult = await fixedTests(prepared.dir, prepared.home, fixed, task, settings);
    line = { ...line, fixed_tests: fixedResult };
    const journal = freshJournal(task, settings);

    const reuse =
      settings.verificationCache && reusingDeps(settings.deps ?? createDefaultDeps(), settings.verificationCache);
    const copyTo =
      settings.outDir && path.join(settings.outDir, 'tasks', task.id, `${settings.workflow}-${formatOf(config)}`);
    const run = await startEvalRun(settings, {
      taskId: task.id,
      repoDir: prepared.dir,
      baseCommit: prepared.commit,
      goal: task.goal,
      config,
      dataDir: path.join(settings.workDir, 'data'),
      copyTo,
      deps: reuse?.deps,
    });
    const { state, head, runDir } = run;
    const headResult = await headTests(prepared.dir, head, { commit: fixed, result: fixedResult }, task, settings);
    const damage = await goldDamage(task, prepared, head, { head: headResult.counts, fixed: fixedResult.counts });
    line = { ...line, ...faultFields(runDir, journal), damage };
    const undone = !settings.keepRuns && (await run.undo());
    line = {
      ...line,
      verifications: reuse ? { ...reuse.stats } : null,
      tokens: run.tokens,
      run: runRecord(state, undone),
      run_tests: state.last_test ? { status: state.last_test.status, counts: state.last_test.counts } : null,
      head_tests: headResult,
    };
    return { ...line, ...judge(state, headResult, fixedResult), wall_ms: Date.now() - started };
  } catch (error) {
    const failure = LatheError.from(error);
    return {
      ...line,
      miss: `error ${failure.code}: ${failure.message}`,
      error: { code: failure.code, message: failure.message },
      wall_ms: Date.now() - started,
    };
  }
}

async function treeOf(repoDir: string, commit: string): Promise<string | null> {
  const result = await runNativeGit(repoDir, ['rev-parse', `${commit}^{tree}`]);
  return result.code === 0 ? result.stdout.trim() : null;
}

function reusingDeps(deps: EngineDeps, cache: VerificationCache): { deps: EngineDeps; stats: VerificationCacheStats } {
  const { verify, stats } = cache.wrap(deps.verify);
  return { deps: { ...deps, verify }, stats };
}

function runRecord(state: RunState, undone: boolean): CorpusTaskLine['run'] {
  return { ...runBasics(state), undone };
}

/** Green, faithful, and why not: exported for its tests. */
export function judge(
  state: RunState,
  head: BareTestResult,
  fixed: BareTestResult,
): Pick<CorpusTaskLine, 'green' | 'faithful' | 'miss'> {
  const status = state.result?.status ?? state.status;
  // A branch that runs fewer tests passes by losing the ones that failed: that is not a fix.
  const lostTests = fewerTests(head.counts, fixed.counts);
  const green = status === 'complete' && head.exit_code === 0 && !lostTests;
  const misses: string[] = [];
  if (lostTests)
    misses.push(
      `the run branch runs fewer tests than the fixed tree (${head.counts?.total ?? 0} vs ${fixed.counts?.total ?? 0}, bare): tests were deleted, emptied or overwritten`,
    );
  if (fixed.exit_code !== 0)
    misses.push(
      `the test command fails bare on the fixed tree (exit ${fixed.exit_code}${fixed.timed_out ? ', timed out' : ''}): the corpus task or this machine is at fault`,
    );
  if (status !== 'complete')
    misses.push(`the run ended ${status}${state.result?.reason ? `: ${state.result.reason}` : ''}`);
  if (head.exit_code !== 0)
    misses.push(
      `the tests fail bare on the run branch (exit ${head.exit_code}${head.timed_out ? ', timed out' : ''}; ${describeCounts(head.counts)})`,
    );
  const runCounts = state.last_test?.counts ?? null;
  if (!sameCounts(runCounts, fixed.counts))
    misses.push(
      `Lathe's verification counted ${describeCounts(runCounts)}, the bare run on the fixed tree ${describeCounts(fixed.counts)}`,
    );
  if (!sameCounts(head.counts, fixed.counts))
    misses.push(
      `bare on the run branch: ${describeCounts(head.counts)}; on the fixed tree: ${describeCounts(fixed.counts)}`,
    );
  const faithful = green && misses.length === 0;
  return { green, faithful, miss: misses.length > 0 ? misses.join('; ') : null };
}
