import type { RunState } from '../../../shared/engine/runState';
import { formatDuration } from '../../../shared/format';

export interface RunTotals {
  promptTokens: number;
  generatedTokens: number;
  elapsedMs: number;
}

/** The run's tokens over every role (its saved metrics) and its run time across sessions. */
export function runTotals(state: RunState): RunTotals {
  const agents = Object.values(state.metrics.agents);
  return {
    promptTokens: agents.reduce((sum, agent) => sum + agent.prompt_tokens, 0),
    generatedTokens: agents.reduce((sum, agent) => sum + agent.completion_tokens, 0),
    elapsedMs: state.elapsed_ms,
  };
}

const count = new Intl.NumberFormat('en-US');

/** `tokens: 12,345 prompt · 678 generated · elapsed 1 min 23 s` */
export function runTotalsLine(totals: RunTotals): string {
  return `tokens: ${count.format(totals.promptTokens)} prompt · ${count.format(totals.generatedTokens)} generated · elapsed ${formatDuration(totals.elapsedMs)}`;
}
