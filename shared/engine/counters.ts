import type { Counters } from './runState';
import type { Limits } from './runConfig';

export type VerifyFailureDecision = 'retry' | 'replan' | 'hard_stop';

/**
 * Seed 004 invariants 5 and 6: REPLAN after `replan_after_failures` consecutive verify failures (the
 * consecutive counter resets after a REPLAN, so replans fall at 3, 6, 9); hard stop at
 * `hard_stop_verify_loops` total loops (that counter resets only on green); when both fire, the hard
 * stop wins.
 */
export function countVerifyFailure(
  counters: Counters,
  limits: Limits,
): { counters: Counters; decision: VerifyFailureDecision } {
  const consecutive = counters.consecutive_verify_failures + 1;
  const total = counters.total_verify_loops + 1;
  const next = { ...counters, consecutive_verify_failures: consecutive, total_verify_loops: total };
  if (limits.hard_stop_verify_loops > 0 && total >= limits.hard_stop_verify_loops) {
    return { counters: next, decision: 'hard_stop' };
  }
  if (limits.replan_after_failures > 0 && consecutive >= limits.replan_after_failures) {
    return { counters: { ...next, consecutive_verify_failures: 0, replans: counters.replans + 1 }, decision: 'replan' };
  }
  return { counters: next, decision: 'retry' };
}

/** Green resets both counters (seed 004: the total counter resets only on green). */
export function countVerifyPass(counters: Counters): Counters {
  return { ...counters, consecutive_verify_failures: 0, total_verify_loops: 0 };
}

export const ESCALATION_LEVELS = ['NONE', 'REMIND', 'CORRECT', 'REFOCUS', 'CRITICAL', 'ABORT'] as const;
export type EscalationLevel = (typeof ESCALATION_LEVELS)[number];

/**
 * Seed 002's table. A verdict scoring below 70 is an "issue"; consecutive issues escalate on their own
 * (2 → CORRECT, 3 → REFOCUS, 4 → CRITICAL, 5 → ABORT) and the level is the higher of that and the
 * score's level (70+ NONE, 50-69 REMIND, 30-49 CORRECT, <30 REFOCUS).
 */
export function escalationFor(score: number, consecutiveIssues: number): EscalationLevel {
  const byScore: EscalationLevel = score >= 70 ? 'NONE' : score >= 50 ? 'REMIND' : score >= 30 ? 'CORRECT' : 'REFOCUS';
  const byCount: EscalationLevel =
    consecutiveIssues >= 5
      ? 'ABORT'
      : consecutiveIssues >= 4
        ? 'CRITICAL'
        : consecutiveIssues >= 3
          ? 'REFOCUS'
          : consecutiveIssues >= 2
            ? 'CORRECT'
            : 'NONE';
  return ESCALATION_LEVELS[Math.max(ESCALATION_LEVELS.indexOf(byScore), ESCALATION_LEVELS.indexOf(byCount))] ?? 'NONE';
}

/** Updates the consecutive-issue count with one more verdict score. */
export function countVerdict(counters: Counters, score: number): { counters: Counters; level: EscalationLevel } {
  const consecutive = score < 70 ? counters.consecutive_low_scores + 1 : 0;
  return { counters: { ...counters, consecutive_low_scores: consecutive }, level: escalationFor(score, consecutive) };
}

/** What the next prompt of the agent concerned is told at each level. */
export const ESCALATION_MESSAGES: Record<EscalationLevel, string> = {
  NONE: '',
  REMIND: 'Supervisor reminder: stay close to the step and its acceptance criteria.',
  CORRECT:
    'Supervisor correction: the last output missed the requirements; address every issue listed before anything else.',
  REFOCUS:
    'Supervisor intervention: stop and refocus. Do only what the step asks, smallest change, and fix the listed issues.',
  CRITICAL: 'FINAL WARNING from the Supervisor: one more rejected output ends this session.',
  ABORT: 'The Supervisor aborted the session after repeated rejected outputs.',
};
