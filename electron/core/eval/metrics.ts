import type { RunState, TestSummary } from '../../../shared/engine/runState';
import type { RunLogEvent } from '../../../shared/schemas/run';
import type { VerifyResult } from '../workspace/index';
import type { RoleQuality, TestOutcome } from './reportSchema';

const emptyQuality = (): RoleQuality => ({
  calls: 0,
  prompt_tokens: 0,
  completion_tokens: 0,
  well_formed: 0,
  malformed: 0,
  errors: 0,
  well_formed_rate: null,
  tokens_per_second: null,
  prompt_lookup: null,
  decode_ms: 0,
  decoded_tokens: 0,
  steered_tokens: 0,
});

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** An answer's decode time, steered tokens and prompt-lookup counts (`agent_output`'s usage), added to its role. */
function addDecode(quality: RoleQuality, usage: unknown): void {
  if (!usage || typeof usage !== 'object') return;
  const data = usage as Record<string, unknown>;
  if (num(data.decode_ms) > 0) {
    quality.decode_ms += num(data.decode_ms);
    quality.decoded_tokens += num(data.completion_tokens);
  }
  quality.steered_tokens += num(data.steered_tokens);
  if (data.lookup_validated !== undefined || data.lookup_refuted !== undefined) {
    const lookup = (quality.prompt_lookup ??= { validated: 0, refuted: 0, acceptance_rate: null });
    lookup.validated += num(data.lookup_validated);
    lookup.refuted += num(data.lookup_refuted);
  }
}

/** The decode rate and lookup acceptance from the summed figures. */
function finishRates(quality: RoleQuality): void {
  quality.well_formed_rate = rate(quality.well_formed, quality.malformed);
  quality.tokens_per_second =
    quality.decode_ms > 0 ? Math.round((quality.decoded_tokens / (quality.decode_ms / 1000)) * 10) / 10 : null;
  if (quality.prompt_lookup)
    quality.prompt_lookup.acceptance_rate = rate(quality.prompt_lookup.validated, quality.prompt_lookup.refuted);
}

/**
 * Per role: how many answers parsed and validated, from the run log. `agent_output` and
 * `agent_declined` (a valid "cannot do this" answer) are well formed; every `agent_retry` for
 * INVALID_OUTPUT and every `agent_failed` is not. Other retried failures (timeouts, provider errors)
 * are counted as errors: no answer was there to judge. Calls and tokens come from the run's metrics.
 */
export function roleQuality(
  log: readonly RunLogEvent[],
  metrics: RunState['metrics'] | null,
): Record<string, RoleQuality> {
  const roles: Record<string, RoleQuality> = {};
  const of = (role: string) => (roles[role] ??= emptyQuality());
  for (const event of log) {
    if (event.type === 'agent_output' || event.type === 'agent_declined') of(event.role).well_formed++;
    if (event.type === 'agent_output') addDecode(of(event.role), event.data.usage);
    else if (event.type === 'agent_failed') of(event.role).malformed++;
    else if (event.type === 'agent_retry') {
      if (event.data.code === 'INVALID_OUTPUT') of(event.role).malformed++;
      else of(event.role).errors++;
    }
  }
  for (const [role, agent] of Object.entries(metrics?.agents ?? {})) {
    if (agent.calls === 0 && !roles[role]) continue;
    Object.assign(of(role), {
      calls: agent.calls,
      prompt_tokens: agent.prompt_tokens,
      completion_tokens: agent.completion_tokens,
    });
  }
  for (const quality of Object.values(roles)) finishRates(quality);
  return sortKeys(roles);
}

export function rate(good: number, bad: number): number | null {
  return good + bad === 0 ? null : good / (good + bad);
}

/** Adds several tasks' role figures together (the report's summary). */
export function sumRoleQuality(all: readonly Record<string, RoleQuality>[]): Record<string, RoleQuality> {
  const total: Record<string, RoleQuality> = {};
  for (const roles of all) {
    for (const [role, quality] of Object.entries(roles)) {
      const sum = (total[role] ??= emptyQuality());
      sum.calls += quality.calls;
      sum.prompt_tokens += quality.prompt_tokens;
      sum.completion_tokens += quality.completion_tokens;
      sum.well_formed += quality.well_formed;
      sum.malformed += quality.malformed;
      sum.errors += quality.errors;
      sum.decode_ms += quality.decode_ms;
      sum.decoded_tokens += quality.decoded_tokens;
      sum.steered_tokens += quality.steered_tokens;
      if (quality.prompt_lookup) {
        const lookup = (sum.prompt_lookup ??= { validated: 0, refuted: 0, acceptance_rate: null });
        lookup.validated += quality.prompt_lookup.validated;
        lookup.refuted += quality.prompt_lookup.refuted;
      }
    }
  }
  for (const quality of Object.values(total)) finishRates(quality);
  return sortKeys(total);
}

export interface RunCounts {
  attempts: number;
  replans: number;
  sub_plans: number;
  fix_cycles: number;
  verifications: number;
}

export function runCounts(state: RunState): RunCounts {
  const topLevelPlans = state.plans.filter((plan) => plan.depth === 0).length;
  return {
    attempts: state.plans.reduce((sum, plan) => sum + plan.steps.reduce((steps, step) => steps + step.attempts, 0), 0),
    // A seed 004 REPLAN that never got a new plan still counts; a rejected plan shows as a later plan.
    replans: Math.max(state.metrics.replan_count, topLevelPlans - 1),
    sub_plans: state.plans.filter((plan) => plan.depth > 0).length,
    fix_cycles: state.metrics.fix_cycles,
    verifications: state.metrics.verifications_passed + state.metrics.verifications_failed,
  };
}

export function outcomeOfSummary(summary: TestSummary | null): TestOutcome | null {
  if (!summary) return null;
  return {
    status: summary.status,
    counts: summary.counts,
    first_failure: summary.first_failure,
    reason: summary.reason,
    isolation: summary.isolation.split(':')[0] ?? summary.isolation,
    duration_ms: summary.duration_ms,
  };
}

export function outcomeOfVerify(result: VerifyResult): TestOutcome {
  return {
    status: result.status,
    counts: result.counts,
    first_failure: result.firstFailure
      ? { test_id: result.firstFailure.testId, message: result.firstFailure.message.slice(0, 2000) }
      : null,
    reason: result.reason,
    isolation: result.isolation.level,
    duration_ms: result.durationMs,
  };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
