import type { RankMethod } from '../../electron/core/context/index';
import type { CorpusTask } from '../../electron/core/eval/corpus/index';
import { BENCH_ROLES, type BenchRole, type Method, type Mode } from './rolePrompt';

export const BUDGETS = { '4k': 4096, '8k': 8192, '16k': 16384 } as const;
export type BudgetKey = keyof typeof BUDGETS;
export const MODES: Mode[] = ['with_failure', 'goal_only'];
/** The writer measured in each mode: the dev-agent Coder with the failing output, the editor-scouts Editor without. */
export const WRITER: Record<Mode, BenchRole> = { with_failure: 'coder', goal_only: 'editor' };
export const METHODS: Method[] = ['baseline', 'new'];
export const RANKERS: RankMethod[] = ['bm25', 'graph', 'combined'];

/** One role's prompt on one task at one budget: is the gold in it, did it overflow, how big it is. */
export interface Cell {
  file: boolean;
  functions: boolean;
  overflow: boolean;
  promptTokens: number;
}

/** Cells keyed `task|role|method|budget`. */
export type Cells = Map<string, Cell>;
/** Per ranker and mode, each task's rank of its worst-placed gold file (9999: not ranked). */
export type Ranks = Record<string, Record<Mode, number[]>>;

export const cellKey = (taskId: string, role: BenchRole, method: Method, key: BudgetKey) =>
  `${taskId}|${role}|${method}|${key}`;

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number);
};
const share = (values: boolean[]) =>
  values.length === 0 ? 0 : Math.round((values.filter(Boolean).length / values.length) * 1000) / 1000;

/** The figures one method reaches over every task, each per budget. */
function methodFigures(tasks: CorpusTask[], cells: Cells) {
  const keys = Object.keys(BUDGETS) as BudgetKey[];
  const pick = (method: Method, role: BenchRole, key: BudgetKey) =>
    tasks.map((task) => cells.get(cellKey(task.id, role, method, key)) as Cell);
  const recallOf = (method: Method, measure: 'file' | 'functions') =>
    Object.fromEntries(
      keys.map((key) => [
        key,
        {
          with_failure: share(pick(method, WRITER.with_failure, key).map((cell) => cell[measure])),
          goal_only: share(pick(method, WRITER.goal_only, key).map((cell) => cell[measure])),
        },
      ]),
    );
  const overflowsByRole = (method: Method) =>
    Object.fromEntries(
      BENCH_ROLES.map((role) => [
        role,
        Object.fromEntries(keys.map((key) => [key, pick(method, role, key).filter((cell) => cell.overflow).length])),
      ]),
    ) as Record<BenchRole, Record<BudgetKey, number>>;
  const overflowsOf = (method: Method) => {
    const byRole = overflowsByRole(method);
    return Object.fromEntries(
      keys.map((key) => [key, BENCH_ROLES.reduce((sum, role) => sum + byRole[role][key], 0)]),
    ) as Record<BudgetKey, number>;
  };
  const promptSizes = (method: Method) =>
    Object.fromEntries(
      BENCH_ROLES.map((role) => [
        role,
        Object.fromEntries(
          keys.map((key) => {
            const sizes = pick(method, role, key).map((cell) => cell.promptTokens);
            return [key, { p50: quantile(sizes, 0.5), p95: quantile(sizes, 0.95) }];
          }),
        ),
      ]),
    );
  // The planning roles: is every gold file named (a map entry or a listed path) in what they see?
  const mapRecallOf = (method: Method) =>
    Object.fromEntries(
      ['planner', 'briefer'].map((role) => [
        role,
        Object.fromEntries(
          keys.map((key) => [key, share(pick(method, role as BenchRole, key).map((cell) => cell.file))]),
        ),
      ]),
    );
  return { recallOf, overflowsByRole, overflowsOf, promptSizes, mapRecallOf };
}

/** Per ranker and mode: the share of tasks whose gold files all rank in the top 1, 3 and 10. */
function rankSummary(ranks: Ranks) {
  return Object.fromEntries(
    RANKERS.map((ranker) => [
      ranker,
      Object.fromEntries(
        MODES.map((mode) => {
          const list = ranks[ranker]?.[mode] ?? [];
          return [
            mode,
            {
              top1: share(list.map((rank) => rank <= 1)),
              top3: share(list.map((rank) => rank <= 3)),
              top10: share(list.map((rank) => rank <= 10)),
            },
          ];
        }),
      ),
    ]),
  );
}

/** The bench's summary: the ranked, budgeted context's figures, the baseline's beside them, and the rankers'. */
export function contextSummary(tasks: CorpusTask[], cells: Cells, ranks: Ranks, corpusDir: string) {
  const { recallOf, overflowsByRole, overflowsOf, promptSizes, mapRecallOf } = methodFigures(tasks, cells);
  const newOverflows = overflowsOf('new');
  return {
    recall: recallOf('new', 'file'),
    overflows: newOverflows['8k'],
    overflows_by_budget: newOverflows,
    overflows_by_role: overflowsByRole('new'),
    function_recall: recallOf('new', 'functions'),
    prompt_tokens: promptSizes('new'),
    map_recall: mapRecallOf('new'),
    baseline: {
      recall: recallOf('baseline', 'file'),
      function_recall: recallOf('baseline', 'functions'),
      overflows_by_budget: overflowsOf('baseline'),
      overflows_by_role: overflowsByRole('baseline'),
      prompt_tokens: promptSizes('baseline'),
      map_recall: mapRecallOf('baseline'),
    },
    ranking: rankSummary(ranks),
    tasks: tasks.length,
    corpus: corpusDir,
    token_count: 'estimate: 4 characters a token, as the server and replay providers fit prompts',
  };
}
