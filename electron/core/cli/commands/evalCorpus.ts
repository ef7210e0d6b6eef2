import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isWorkflowName, WORKFLOW_NAMES } from '../../../../shared/schemas/workflowName';
import { EditFormatNameSchema } from '../../../../shared/engine/runConfig';
import { sourceAppRoot } from '../../appRoot';
import { isOracleSpec, type CorpusFaults } from '../../eval/corpus/corpusFaults';
import {
  loadCorpus,
  runCorpusEval,
  selectCorpusTasks,
  VerificationCache,
  type CorpusEvalResult,
  type CorpusTaskLine,
} from '../../eval/corpus/index';
import { parseFaultList } from '../../llm/oracle/faults/faultSettings';
import { formatDurationMs } from '../../eval/index';
import { formatTokens, laptopCell, laptopLegend } from '../../eval/reportFormat';
import { laptopMinutes } from '../../../../shared/engine/laptopTime';
import type { MedianTokens, TokenCounts } from '../../../../shared/engine/tokenCounts';
import { isBareOracleSpec, parseModelSpec } from '../../llm/index';
import { UsageError, type CliIo } from '../command';
import { ExitCode } from '../exitCodes';

export interface CorpusEvalFlags {
  corpus: string;
  tasks?: string;
  model?: string;
  roleModels: Record<string, string>;
  workflow?: string;
  editFormat?: string;
  configFile?: string;
  jobs: number;
  threads?: number;
  timeLimitMs: number | null;
  out?: string;
  cache?: string;
  keep: boolean;
  json: boolean;
  faults?: string;
  faultSeed?: string;
  feedbackCheck?: boolean;
  reuseVerifications?: boolean;
}

function checkSpec(spec: string, cwd: string): void {
  if (isBareOracleSpec(spec)) return;
  const parsed = parseModelSpec(spec.replaceAll('{task}', 'task'), { cwd });
  if (!parsed.ok) throw new UsageError(parsed.message);
}

/** `--faults`: only an oracle writer can be spoiled, so every writer role's model must be one. */
function faultSettings(flags: CorpusEvalFlags): CorpusFaults | undefined {
  if (flags.faults === undefined) {
    if (flags.faultSeed !== undefined || flags.feedbackCheck)
      throw new UsageError('--fault-seed and --feedback-check go with --faults KIND[:RATE],…');
    return undefined;
  }
  const faults = parseFaultList(flags.faults);
  if (!faults.ok) throw new UsageError(`--faults: ${faults.message}`);
  const seed = flags.faultSeed === undefined ? 1 : Number(flags.faultSeed);
  if (!Number.isInteger(seed) || seed < 0 || seed > 999_999_999)
    throw new UsageError('--fault-seed must be a whole number from 0 to 999999999');
  for (const role of ['coder', 'editor'] as const) {
    const spec = flags.roleModels[role] ?? flags.model;
    if (spec !== undefined && !isOracleSpec(spec)) {
      throw new UsageError(
        `--faults spoils the oracle's answers, but the ${role}'s model is ${spec}: use --model oracle: (or --role-model ${role}=oracle:…)`,
      );
    }
  }
  return { faults: faults.value, seed, feedbackCheck: flags.feedbackCheck === true };
}

function damageText(line: CorpusTaskLine): string {
  const damage = line.damage;
  if (!damage) return '';
  const parts = Object.entries(damage).flatMap(([name, count]) =>
    count > 0 ? [`${name.replace(/_/g, ' ')} ${count}`] : [],
  );
  return parts.length > 0 ? `; damage: ${parts.join(', ')}` : '';
}

/** `40.3k prompt (12.0k cached, 28.3k prefill), 241 generated, 2 calls; laptop minutes 9.5/2.1`; `~`: estimated counts. */
function tokensText(tokens: TokenCounts | MedianTokens): string {
  const mark = tokens.estimated ? '~' : '';
  return `${mark}${formatTokens(tokens.prompt)} prompt (${mark}${formatTokens(tokens.cached)} cached, ${mark}${formatTokens(tokens.prefill)} prefill), ${mark}${formatTokens(tokens.generated)} generated, ${tokens.calls} calls; laptop minutes ${laptopCell(laptopMinutes(tokens))}`;
}

function taskLineText(line: CorpusTaskLine): string {
  const verdict = line.faithful ? 'GREEN' : line.green ? 'green (unfaithful)' : line.error ? 'ERROR' : 'not green';
  const faults = line.faults
    ? `; faults ${line.faults_applied.join(', ') || 'none applied'}, ${line.attempts ?? 0} writer answer(s)`
    : '';
  const tokens = line.tokens ? `\n    tokens ${tokensText(line.tokens)}` : '';
  const reused = line.verifications
    ? `; verifications ran ${line.verifications.ran}, reused ${line.verifications.reused}`
    : '';
  return `${line.task} [${line.workflow}, ${line.edit_format}]: ${verdict} — run ${line.run?.status ?? '-'}, ${formatDurationMs(line.wall_ms)}${faults}${reused}${damageText(line)}${line.miss ? `\n    ${line.miss}` : ''}${tokens}`;
}

/** corpus-eval.jsonl: every task's line, then the summary line. */
function writeCorpusReport(outDir: string, result: CorpusEvalResult): void {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(
    path.join(outDir, 'corpus-eval.jsonl'),
    [...result.lines, result.summary].map((line) => JSON.stringify(line)).join('\n') + '\n',
  );
}

function summaryText(summary: CorpusEvalResult['summary'], outDir: string | null): string {
  const medians = summary.median_tokens
    ? `\nmedian per task: ${tokensText(summary.median_tokens)}\n${laptopLegend()}`
    : '';
  return `\ngreen ${summary.green}/${summary.tasks} · faithful ${summary.faithful}/${summary.tasks} · damaging ${summary.damaging} · errors ${summary.errors} · ${formatDurationMs(summary.elapsed_ms)}${medians}${outDir ? `\nreport: ${path.join(outDir, 'corpus-eval.jsonl')}` : ''}`;
}

/**
 * `lathe eval --corpus DIR`: each task of a real bug-fix corpus (tasks.json + git bundles), prepared
 * offline, run by Lathe, then its own test command bare on the run branch and on the fixed tree.
 * `--json` prints one JSON line per task and a last summary line.
 */
export async function corpusEvalCommand(flags: CorpusEvalFlags, io: CliIo): Promise<number> {
  const corpusDir = path.resolve(io.cwd, flags.corpus);
  const corpus = loadCorpus(corpusDir);
  let tasks;
  try {
    tasks = selectCorpusTasks(corpus, flags.tasks);
  } catch (error) {
    throw new UsageError(`--tasks: ${error instanceof Error ? error.message : String(error)}`);
  }
  const workflow = flags.workflow ?? 'minimal';
  if (!isWorkflowName(workflow)) throw new UsageError(`unknown workflow '${workflow}' (${WORKFLOW_NAMES.join(', ')})`);
  const editFormat = flags.editFormat === undefined ? undefined : EditFormatNameSchema.safeParse(flags.editFormat);
  if (editFormat && !editFormat.success)
    throw new UsageError(`--edit-format must be one of ${EditFormatNameSchema.options.join(', ')}`);
  if (!flags.model && Object.keys(flags.roleModels).length === 0)
    throw new UsageError(
      "pass --model SPEC (or --role-model ROLE=SPEC); `oracle:` answers from each task's gold patch",
    );
  for (const spec of [flags.model, ...Object.values(flags.roleModels)]) if (spec) checkSpec(spec, io.cwd);
  const faults = faultSettings(flags);

  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lathe-corpus-eval-'));
  const outDir = flags.out ? path.resolve(io.cwd, flags.out) : null;
  const controller = new AbortController();
  const onInterrupt = () => controller.abort();
  process.on('SIGINT', onInterrupt);
  process.on('SIGTERM', onInterrupt);
  try {
    if (!flags.json)
      io.out(
        `Lathe corpus eval — ${tasks.length} task(s) from ${corpusDir}, workflow ${workflow}${flags.editFormat ? `, edit format ${flags.editFormat}` : ''}, ${flags.model ? `model ${flags.model}` : 'models per role'}${faults ? `, faults ${flags.faults ?? ''} (seed ${faults.seed}${faults.feedbackCheck ? ', feedback-check' : ''})` : ''}\n`,
      );
    const result = await runCorpusEval({
      appRoot: sourceAppRoot(),
      corpusDir,
      tasks,
      workflow,
      model: flags.model,
      roleModels: flags.roleModels,
      editFormat: editFormat?.data,
      configFile: flags.configFile ? path.resolve(io.cwd, flags.configFile) : undefined,
      timeLimitMs: flags.timeLimitMs,
      threads: flags.threads,
      jobs: flags.jobs,
      cacheDir: flags.cache ? path.resolve(io.cwd, flags.cache) : undefined,
      workDir,
      outDir,
      keepRuns: flags.keep,
      faults,
      verificationCache: flags.reuseVerifications
        ? new VerificationCache(path.join(workDir, 'verifications'))
        : undefined,
      signal: controller.signal,
      onTaskStart: (task) => flags.json || io.status?.(`${task.id} running…`),
      onTaskLine: (line) => io.out(flags.json ? JSON.stringify(line) : taskLineText(line)),
    });
    if (outDir) writeCorpusReport(outDir, result);
    const { summary } = result;
    io.out(flags.json ? JSON.stringify(summary) : summaryText(summary, outDir));
    if (summary.interrupted) return ExitCode.goalNotMet;
    if (summary.errors > 0) return ExitCode.infraError;
    return summary.green === summary.tasks ? ExitCode.success : ExitCode.goalNotMet;
  } finally {
    process.off('SIGINT', onInterrupt);
    process.off('SIGTERM', onInterrupt);
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
