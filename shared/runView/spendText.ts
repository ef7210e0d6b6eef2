import { formatDuration } from '../format';
import { msBetween } from './eventData';
import type { AgentStats, StepSpend } from './types';

const count = (value: number): string => (value >= 10_000 ? `${(value / 1000).toFixed(1)}k` : String(value));

/** `3 calls · 12.3k in (10.0k cached) · 456 out`, `~` before estimated counts (oracle, replay); null for no calls. */
export function tokensText(spend: {
  calls: number;
  promptTokens: number;
  cachedTokens: number;
  generatedTokens: number;
  estimated: boolean;
}): string | null {
  if (spend.calls === 0) return null;
  const mark = spend.estimated ? '~' : '';
  return `${spend.calls} call${spend.calls === 1 ? '' : 's'} · ${mark}${count(spend.promptTokens)} in (${mark}${count(spend.cachedTokens)} cached) · ${mark}${count(spend.generatedTokens)} out`;
}

/** A step's time from its first start to its end (or to `now` while it runs), or null before it started. */
export function stepDurationMs(spend: StepSpend, now: string | null): number | null {
  if (!spend.startedTs) return null;
  const end = spend.endedTs ?? now;
  return end ? msBetween(spend.startedTs, end) : null;
}

/** A step's tokens and time, as its line in the plan says them. */
export function stepSpendText(spend: StepSpend, now: string | null): string | null {
  const tokens = tokensText(spend);
  const duration = stepDurationMs(spend, now);
  const parts = [
    tokens,
    spend.callMs > 0 ? `model ${formatDuration(spend.callMs)}` : null,
    duration !== null ? `${formatDuration(duration)} in all` : null,
  ].filter((part): part is string => part !== null);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** The run's calls and tokens over every role. */
export function runSpend(agents: Record<string, AgentStats>): Omit<StepSpend, 'startedTs' | 'endedTs'> {
  const all = Object.values(agents);
  return {
    calls: all.reduce((sum, agent) => sum + agent.calls, 0),
    promptTokens: all.reduce((sum, agent) => sum + agent.promptTokens, 0),
    cachedTokens: all.reduce((sum, agent) => sum + agent.cachedTokens, 0),
    generatedTokens: all.reduce((sum, agent) => sum + agent.completionTokens, 0),
    estimated: all.some((agent) => agent.estimated),
    callMs: all.reduce((sum, agent) => sum + agent.callMs, 0),
  };
}
