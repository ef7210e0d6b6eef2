import type { ContextItem } from '../llm/types';
import type { ModelRole } from '../../../shared/schemas/roles';

/**
 * Each role's prompt as a llama.cpp session sees it: the next call reuses the longest token prefix it
 * shares with the role's previous one. The context a role was shown is kept in that call's order, so
 * the items shown again unchanged (the same file, the same map) come first and cost no new prefill;
 * what is new or changed (a file the writer edited, a newly ranked one) follows them. Priorities are
 * untouched: the model layer's fit still drops the lowest-ranked items first.
 */
export class PromptSessions {
  private readonly shown = new Map<ModelRole, ContextItem[]>();

  /** The call's items in session order: the longest run of the previous call's items shown again unchanged, then the rest by rank. */
  order(role: ModelRole, items: readonly ContextItem[]): ContextItem[] {
    const current = new Map(items.map((item) => [keyOf(item), item]));
    const head: ContextItem[] = [];
    // Only a run from the start of the previous order is a reusable prefix: it ends at the first item not shown again.
    for (const item of this.shown.get(role) ?? []) {
      const same = current.get(keyOf(item));
      if (!same) break;
      head.push(same);
    }
    const ordered = [...head, ...items.filter((item) => !head.includes(item))];
    this.shown.set(role, ordered);
    return ordered;
  }
}

const keyOf = (item: ContextItem) => `${item.id}\0${item.text}`;
