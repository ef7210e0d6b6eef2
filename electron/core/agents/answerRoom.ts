import { estimateTokens } from '../llm/results';
import type { ChatMessage, GenerateRequest } from '../llm/types';
import type { ModelRole } from '../../../shared/schemas/roles';

/**
 * How one call can make room for a longer answer after a cut-off: a request asked again with the
 * same answer budget would be cut at the same place, so a retry always asks for more, or stops.
 */
export interface AnswerRoom {
  /** The most answer tokens the role's window holds beside the call's prompt (and the files it must show whole). */
  tokens: number;
  role: ModelRole;
  contextSize: number;
  /** What the model should change when no longer answer can be had; the end of the failure's message. */
  advice: string;
  /** The request again with `answerTokens` reserved for the answer, its context refitted to the rest. */
  refit(answerTokens: number): Promise<GenerateRequest<unknown>>;
}

/** What a retried answer gets beyond the text it was cut in: a JSON answer's closing fields and brackets. */
export const CUT_OFF_MARGIN = 256;
/**
 * The mandatory prompt is estimated at 4 characters a token; code tokenizes denser. A grown answer
 * leaves this share of the prompt's estimate free, so the exact fit never finds the prompt too long.
 */
const ESTIMATE_SLACK = 0.2;

/** Room for the answer in a `contextSize` window beside `promptTokens` (estimated) that must be sent. */
export function answerTokensLeft(contextSize: number, promptTokens: number): number {
  return Math.max(0, Math.floor(contextSize - promptTokens * (1 + ESTIMATE_SLACK)));
}

/**
 * The next answer budget after a cut at `cutAt`: twice as much, and at least what was written plus a
 * margin, within what the window holds. Null when the window holds no more than was cut.
 */
export function grownAnswerBudget(cutAt: number, written: string | null, room: number): number | null {
  const wanted = Math.max(cutAt * 2, estimateTokens(written ?? '') + CUT_OFF_MARGIN);
  const next = Math.min(wanted, room);
  return next > cutAt ? next : null;
}

/** A call whose context (if any) the provider fits by priority: growing the answer only raises maxTokens. */
export function providerFittedRoom(
  request: GenerateRequest<unknown>,
  contextSize: number,
  advice = SHORTER_ANSWER,
): AnswerRoom {
  const prompt = request.messages.reduce((sum, message: ChatMessage) => sum + estimateTokens(message.content) + 4, 0);
  return {
    tokens: answerTokensLeft(contextSize, prompt),
    role: request.role,
    contextSize,
    advice,
    refit: async (answerTokens) => ({ ...request, maxTokens: answerTokens }),
  };
}

export const SHORTER_ANSWER = 'give a shorter answer: fewer items, and shorter texts in each';

/** The writer's way to a smaller answer in its edit format. */
export function smallerChangeAdvice(editFormat: string): string {
  if (editFormat === 'whole-file') {
    return 'make a smaller change: rewrite only the files the fix needs, fewer of them per answer, since each file costs its full length in answer tokens (the search-replace edit format would send only the changed blocks)';
  }
  return 'make a smaller change: fewer and shorter edits, each with only the lines that change and a few unchanged lines around them';
}

/** The failure when no longer answer can be had: what happened, then what the model should do instead. */
export function cutOffMessage(
  room: AnswerRoom,
  cutAt: number,
  why: 'window' | 'retries' | 'same',
  tries: number,
): string {
  const cause =
    why === 'window'
      ? `the answer was cut off at ${cutAt} tokens, all the room the ${room.role}'s ${room.contextSize}-token window leaves beside its prompt`
      : why === 'same'
        ? tries > 1
          ? `the answer was cut off at ${cutAt} tokens and came back the same, word for word, with a larger budget: it stops there whatever its room`
          : `the answer was cut off at ${cutAt} tokens, the same answer, word for word, as an earlier attempt's`
        : `the answer was cut off at ${cutAt} tokens, after ${tries} tries with a larger answer budget each`;
  return `${cause}; ${room.advice}`;
}
