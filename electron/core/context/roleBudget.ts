import type { RunConfig } from '../../../shared/engine/runConfig';
import { DEFAULT_CONTEXT_SIZE } from '../llm/llama/defaults';
import { DEFAULT_MAX_TOKENS } from '../llm/providers/provider';
import type { ModelRole } from '../../../shared/schemas/roles';

/** Servers and replays state no window; context is still sized as if a mid-size local model answered. */
export const UNSTATED_CONTEXT_SIZE = 16_384;
/**
 * The `oracle:` model stands for a perfect 7B-class coder with its native 32k window (Qwen2.5-Coder's):
 * big enough that a whole-file answer for a ~1,000-line file fits, small enough that a 5,000-line one
 * does not, as with a real laptop model (docs/oracle-model.md).
 */
export const ORACLE_CONTEXT_SIZE = 32_768;

export interface RoleBudget {
  /** The role's context window in tokens, as its provider will size it. */
  contextSize: number;
  /** Tokens kept free for the answer (the role's maxTokens). */
  answerReserve: number;
}

/**
 * The window a role's calls get: its configured contextSize, else what its provider would pick
 * (llama: the pool's default; others: UNSTATED_CONTEXT_SIZE), minus nothing yet: callers subtract the
 * answer reserve and the mandatory prompt.
 */
export function roleBudget(config: RunConfig, role: ModelRole): RoleBudget {
  const model = config.models[role];
  const answerReserve = model?.max_tokens ?? DEFAULT_MAX_TOKENS;
  if (model?.context_size !== undefined) return { contextSize: model.context_size, answerReserve };
  const spec = model?.model ?? '';
  return {
    contextSize: spec.startsWith('llama:')
      ? DEFAULT_CONTEXT_SIZE
      : spec.startsWith('oracle:')
        ? ORACLE_CONTEXT_SIZE
        : UNSTATED_CONTEXT_SIZE,
    answerReserve,
  };
}

/**
 * A writer's first try at a step is planned as in this window, whatever its model's is: on the corpus
 * the files to change are found at 8k as often as at 16k, and every token past it is prefill a laptop
 * pays on each call (decision 99). A retry, a sub-plan's step or a whole-file writer gets the whole window.
 */
export const FIRST_TRY_WINDOW = 8_192;

/** The context budget of a first try: what the same prompt would leave of a FIRST_TRY_WINDOW window. */
export function firstTryBudget(budgetTokens: number, contextSize: number): number {
  return contextSize <= FIRST_TRY_WINDOW ? budgetTokens : Math.max(0, budgetTokens - (contextSize - FIRST_TRY_WINDOW));
}
