import fs from 'node:fs';
import type { z } from 'zod';
import type { ContextItem } from '../../types';
import type { GoldPatch } from '../goldPatch';
import { editFormatOf, writerTask, type OracleAnswer } from '../roleAnswers';
import type { VisibleFile } from '../visibleFile';
import { FaultSession, type WriterReply } from './faultSession';
import type { FaultSettings } from './faultSettings';

export interface WriterRequest {
  input: Record<string, unknown>;
  files: ReadonlyMap<string, VisibleFile>;
  /** The call's kept context items (the non-file ones are read for paths). */
  context: readonly ContextItem[];
  schema: z.ZodType;
  gold: GoldPatch;
  correct: OracleAnswer;
  maxTokens: number;
  budgetStated: boolean;
}

const isFileView = (item: ContextItem) => item.id.startsWith('file:') || item.id.startsWith('excerpt:');

/**
 * The oracle's writer with faults: turns each correct answer into the spoiled one the settings call for,
 * and appends what it carried to the journal (lathe eval reads it for the task line).
 */
export class SpoiledWriter {
  private readonly session: FaultSession;

  constructor(private readonly settings: FaultSettings) {
    this.session = new FaultSession(settings);
  }

  reply(request: WriterRequest): { ok: true; reply: WriterReply } | { ok: false; message: string } {
    const format = editFormatOf(request.schema);
    if (!format)
      return {
        ok: true,
        reply: request.correct.kind === 'value' ? request.correct : { kind: 'decline', reason: request.correct.reason },
      };
    const task = writerTask(request.input, request.gold);
    const { reply, journal } = this.session.answer({
      step: task.step,
      format,
      correct: request.correct.kind === 'value' ? request.correct : { kind: 'decline', reason: request.correct.reason },
      files: request.files,
      gold: task.files,
      feedback: typeof request.input.feedback === 'string' ? request.input.feedback : null,
      notes: request.context.filter((item) => !isFileView(item)).map((item) => item.text),
      maxTokens: request.maxTokens,
      budgetStated: request.budgetStated,
      fits: (value) => request.schema.safeParse(value).success,
    });
    if (this.settings.journal !== null) {
      try {
        fs.appendFileSync(this.settings.journal, `${JSON.stringify(journal)}\n`);
      } catch (error) {
        const code =
          typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : String(error);
        return { ok: false, message: `cannot append to the oracle's fault journal ${this.settings.journal} (${code})` };
      }
    }
    return { ok: true, reply };
  }
}
