import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isMissing, unreadable } from '../../fsErrors';
import { faultSpecSuffix } from '../../llm/oracle/faults/faultSpec';
import { FaultKindSchema, formatFaultList, type FaultRate } from '../../llm/oracle/faults/faultSettings';

/** `lathe eval --corpus … --faults KINDS [--fault-seed N] [--feedback-check]`: how the oracle's writer is spoiled. */
export interface CorpusFaults {
  faults: FaultRate[];
  seed: number;
  feedbackCheck: boolean;
}

/** The faults a task line was run with (null: a perfect model). */
export const FaultRunSchema = z.object({ kinds: z.string(), seed: z.number(), feedback_check: z.boolean() });
export type FaultRun = z.infer<typeof FaultRunSchema>;

export const faultRun = (faults: CorpusFaults | undefined): FaultRun | null =>
  faults ? { kinds: formatFaultList(faults.faults), seed: faults.seed, feedback_check: faults.feedbackCheck } : null;

export const isOracleSpec = (spec: string): boolean => spec.trim().startsWith('oracle:');

/** Where the oracle of one run writes what each writer answer carried. */
export function faultJournalPath(workDir: string, taskId: string, workflow: string, format: string): string {
  return path.join(workDir, 'faults', `${taskId}-${workflow}-${format}.jsonl`);
}

/** An oracle spec with this task's fault settings on it; any other spec as it is. */
export function spoiledSpec(spec: string, faults: CorpusFaults | undefined, taskId: string, journal: string): string {
  if (!faults || !isOracleSpec(spec)) return spec;
  return `${spec}${faultSpecSuffix({ faults: faults.faults, seed: faults.seed, task: taskId, feedbackCheck: faults.feedbackCheck, journal })}`;
}

const JournalLineSchema = z.object({
  step: z.string(),
  answer: z.number(),
  carried: z.array(FaultKindSchema),
  skipped: z.array(z.object({ kind: FaultKindSchema, reason: z.string() })),
  identical: z.number(),
});

export const FaultSkipSchema = z.object({ step: z.string(), kind: z.string(), reason: z.string() });

export interface FaultJournalSummary {
  /** The kinds the steps' first answers carried. */
  applied: string[];
  /** Kinds decided for a first answer that could not apply to it (that answer stayed correct there). */
  skipped: z.infer<typeof FaultSkipSchema>[];
  /** The most byte-identical writer answers seen in one step. */
  mostIdentical: number;
}

/** Reads a run's fault journal; no file means the writer never answered. */
export function readFaultJournal(file: string): FaultJournalSummary {
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (!isMissing(error)) throw unreadable(file, error);
  }
  const lines = text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JournalLineSchema.parse(JSON.parse(line)));
  const firsts = lines.filter((line) => line.answer === 1);
  return {
    applied: [...new Set(firsts.flatMap((line) => line.carried))].sort(),
    skipped: firsts.flatMap((line) =>
      line.skipped.map((skip) => ({ step: line.step, kind: skip.kind, reason: skip.reason })),
    ),
    mostIdentical: lines.reduce((most, line) => Math.max(most, line.identical), 0),
  };
}

const LogLineSchema = z
  .object({ type: z.string(), data: z.object({ purpose: z.string().optional() }).loose().optional() })
  .loose();

/**
 * The writer's answers in a run: its model calls for purpose `code`, from the run's log (`agent_call`
 * opens each, `agent_retry` counts each call retried after it). The state's per-role counts cannot
 * tell them apart from the Editor's brief, which is the same role.
 */
export function writerAttempts(runDir: string): number {
  const file = path.join(runDir, 'log.jsonl');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return 0;
    throw unreadable(file, error);
  }
  return text.split('\n').reduce((count, line) => {
    if (line.trim() === '') return count;
    const event = LogLineSchema.safeParse(JSON.parse(line));
    return event.success &&
      (event.data.type === 'agent_call' || event.data.type === 'agent_retry') &&
      event.data.data?.purpose === 'code'
      ? count + 1
      : count;
  }, 0);
}
