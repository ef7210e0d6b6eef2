import type { BuiltContext } from '../context/contextAssembly';
import type { ContextEntry } from '../../../shared/schemas/agentContext';
import { estimateTokens } from '../llm/results';
import type { ContextItem } from '../llm/types';

/** The earlier run of a follow-up, as the agents layer reads it from the run folder. */
export interface EarlierRun {
  runId: string;
  text: string;
}

/**
 * Share of a call's context budget the earlier run may take: what the ranker picks (the files to edit,
 * the repository map) keeps the rest, and a budget too small for a useful summary gets none of it.
 */
const SHARE = 0.2;
const MIN_TOKENS = 150;
const itemTokens = (text: string) => estimateTokens(text) + 2;

/** Cuts the text to `tokens`; its head (goal, plan outcome) matters most, the diff's tail least. */
function fitText(text: string, tokens: number): string {
  if (itemTokens(text) <= tokens) return text;
  const note = '\n… (earlier run cut to fit the context)\n';
  const chars = Math.max(0, (tokens - 2) * 4 - note.length);
  return `${text.slice(0, chars)}${note}`;
}

/**
 * Adds the earlier run (goal, how its plan ended, its diff) to a budgeted context, as a follow-up's
 * planning and writing roles see it: within a share of the budget, the rest left to the ranked
 * context, and with the lowest priority, so the model layer's own fit drops it before any file.
 */
export function withEarlierRun(
  earlier: EarlierRun | null,
  build: (budgetTokens: number) => Promise<BuiltContext>,
): (budgetTokens: number) => Promise<BuiltContext> {
  if (!earlier) return build;
  return async (budgetTokens) => {
    const cap = Math.floor(budgetTokens * SHARE);
    const text = cap >= MIN_TOKENS ? fitText(earlier.text, cap) : '';
    const tokens = text === '' ? itemTokens(earlier.text) : itemTokens(text);
    const entry: ContextEntry = {
      id: `run:${earlier.runId}`,
      path: earlier.runId,
      kind: 'run',
      tokens,
      reason: 'the earlier run this one follows up on',
    };
    if (text === '') {
      const built = await build(budgetTokens);
      return { ...built, dropped: [...built.dropped, { ...entry, reason: `${entry.reason}; no room` }] };
    }
    const built = await build(Math.max(0, budgetTokens - tokens));
    const lowest = Math.min(1, ...built.items.map((item) => item.priority));
    const item: ContextItem = { id: entry.id, text, priority: lowest - 1 };
    return {
      ...built,
      items: [...built.items, item],
      included: [...built.included, entry],
      usedTokens: built.usedTokens + tokens,
    };
  };
}

/** The same item for a context that is not budgeted (the model layer fits it by priority). */
export function earlierRunItem(earlier: EarlierRun | null): ContextItem[] {
  return earlier ? [{ id: `run:${earlier.runId}`, text: earlier.text, priority: 0 }] : [];
}
