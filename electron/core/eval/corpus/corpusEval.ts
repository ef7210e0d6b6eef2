import { medianTokens } from '../../../../shared/engine/tokenCounts';
import { faultRun } from './corpusFaults';
import { isDamaging } from './damage';
import {
  CorpusSummaryLineSchema,
  CorpusTaskLineSchema,
  type CorpusSummaryLine,
  type CorpusTaskLine,
} from './corpusReport';
import type { CorpusTask } from './corpusTasks';
import { runCorpusTask, type CorpusRunSettings } from './runCorpusTask';

export interface CorpusEvalOptions extends CorpusRunSettings {
  tasks: readonly CorpusTask[];
  /** Tasks at a time (default 1). */
  jobs?: number;
  onTaskStart?: (task: CorpusTask) => void;
  /** Each task's line as soon as it is judged (in finishing order). */
  onTaskLine?: (line: CorpusTaskLine) => void;
}

export interface CorpusEvalResult {
  /** In the tasks' order. */
  lines: CorpusTaskLine[];
  summary: CorpusSummaryLine;
}

/** Every task through `runCorpusTask`, `jobs` at a time; an interrupted eval skips the tasks not started. */
export async function runCorpusEval(options: CorpusEvalOptions): Promise<CorpusEvalResult> {
  const started = Date.now();
  const lines: (CorpusTaskLine | undefined)[] = new Array(options.tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < options.tasks.length && !options.signal?.aborted) {
      const index = next++;
      const task = options.tasks[index] as CorpusTask;
      options.onTaskStart?.(task);
      const line = CorpusTaskLineSchema.parse(await runCorpusTask(task, options));
      lines[index] = line;
      options.onTaskLine?.(line);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs ?? 1, options.tasks.length)) }, worker));
  const done = lines.filter((line): line is CorpusTaskLine => line !== undefined);
  const faithful = done.filter((line) => line.faithful).length;
  const summary = CorpusSummaryLineSchema.parse({
    tasks: done.length,
    green: done.filter((line) => line.green).length,
    faithful,
    errors: done.filter((line) => line.error !== null).length,
    damaging: done.filter((line) => isDamaging(line.damage)).length,
    fidelity: done.length === 0 ? null : faithful / done.length,
    workflow: options.workflow,
    edit_format: done[0]?.edit_format ?? options.editFormat ?? 'default',
    model: options.model ?? null,
    faults: faultRun(options.faults),
    corpus: options.corpusDir,
    median_tokens: medianTokens(done.flatMap((line) => (line.tokens ? [line.tokens] : []))),
    elapsed_ms: Date.now() - started,
    interrupted: options.signal?.aborted === true || done.length < options.tasks.length,
  });
  return { lines: done, summary };
}
