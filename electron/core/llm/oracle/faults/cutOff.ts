import { estimateTokens } from '../../results';
import type { Random } from './random';

/** Characters per token, as `estimateTokens` counts them. */
const CHARS_PER_TOKEN = 4;

/**
 * `cut-off`: the answer's text as a model stopped at its token budget leaves it — at the budget when the
 * answer is longer, else (a model that spent its budget elsewhere, or states none) at 40-85 % of it.
 * Never the whole text: a cut answer's JSON is unfinished.
 */
export function cutAnswer(raw: string, maxTokens: number | undefined, random: Random): string {
  const budget = maxTokens !== undefined && estimateTokens(raw) > maxTokens ? maxTokens : null;
  const at = budget !== null ? budget * CHARS_PER_TOKEN : Math.floor(raw.length * (0.4 + 0.45 * random()));
  return raw.slice(0, Math.max(1, Math.min(at, raw.length - 1)));
}
