import type { RunState } from '../../../shared/engine/runState';
import { runTokenCounts, type TokenCounts } from '../../../shared/engine/tokenCounts';
import { formatDuration } from '../../../shared/format';

export interface RunTotals {
  tokens: TokenCounts;
  elapsedMs: number;
}

/** The run's tokens over every role (its saved metrics) and its run time across sessions. */
export function runTotals(state: RunState): RunTotals {
  return { tokens: runTokenCounts(state.metrics), elapsedMs: state.elapsed_ms };
}

const count = new Intl.NumberFormat('en-US');

/** `tokens: 12,345 prompt (10,000 cached, 2,345 new) · 678 generated · elapsed 1 min 23 s`, and `(estimated)` for oracle/replay counts. */
export function runTotalsLine(totals: RunTotals): string {
  const { tokens } = totals;
  const estimated = tokens.estimated ? ' (estimated)' : '';
  return `tokens: ${count.format(tokens.prompt)} prompt (${count.format(tokens.cached)} cached, ${count.format(tokens.prefill)} new) · ${count.format(tokens.generated)} generated${estimated} · elapsed ${formatDuration(totals.elapsedMs)}`;
}

/** What `lathe run --json`'s last line adds: the same totals, machine-readable. */
export function runTotalsJson(totals: RunTotals): { tokens: TokenCounts; elapsed_ms: number } {
  return { tokens: totals.tokens, elapsed_ms: totals.elapsedMs };
}
