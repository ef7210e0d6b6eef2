import type { PendingEvent } from '../../../shared/engine/runEvents';
import type { RunState } from '../../../shared/engine/runState';
import type { RunLogEvent } from '../../../shared/schemas/run';

function hypothesesFrom(events: RunLogEvent[]): string[] {
  const found: string[] = [];
  for (const event of events) {
    if (event.type !== 'scout_report') continue;
    const report = event.data.report as { hypotheses?: unknown } | undefined;
    if (Array.isArray(report?.hypotheses))
      for (const hypothesis of report.hypotheses)
        if (typeof hypothesis === 'string' && !found.includes(hypothesis)) found.push(hypothesis);
  }
  return found;
}

/** The artifact folders a stuck report points at (kept until the report is resolved). */
export function stuckArtifacts(state: RunState): string[] {
  const dirs = [...state.failure_history.map((failure) => failure.artifact_dir), state.last_test?.artifact_dir ?? ''];
  return [...new Set(dirs.filter(Boolean))];
}

/**
 * Seed 004: "stuck-report artifacts retained until resolved" — resolved means the run went green on a
 * resume, or was merged or undone. Logged when there was anything to release.
 */
export async function releaseRunArtifacts(
  deps: { releaseArtifacts(dir: string): Promise<boolean> },
  state: RunState,
  log: (event: PendingEvent) => void,
): Promise<string[]> {
  const released: string[] = [];
  // catch-ok: an artifact folder not released stays retained, which costs only space; the next finish tries again
  for (const dir of stuckArtifacts(state)) if (await deps.releaseArtifacts(dir).catch(() => false)) released.push(dir);
  if (released.length > 0) log({ role: 'engine', type: 'artifacts_released', data: { dirs: released } });
  return released;
}

/** Seed 004: a stuck run ends with hypotheses, the last failures and artifact references, for a human. */
export function renderStuckReport(state: RunState, events: RunLogEvent[]): string {
  const hypotheses = hypothesesFrom(events);
  return [
    `# Stuck report — run ${state.run_id}`,
    '',
    `Goal: ${state.goal}`,
    `Why it stopped: ${state.result?.reason ?? state.status}`,
    `Verify loops: ${state.counters.total_verify_loops} total, ${state.counters.consecutive_verify_failures} consecutive failures, ${state.counters.replans} replan(s).`,
    '',
    '## Hypotheses',
    ...(hypotheses.length > 0 ? hypotheses.map((hypothesis) => `- ${hypothesis}`) : ['- (the Scouts recorded none)']),
    '',
    '## Last failures',
    ...(state.failure_history.length > 0
      ? state.failure_history.flatMap((failure, index) => [
          `### ${index + 1}. ${failure.status}${failure.step_id ? ` (${failure.step_id})` : ''}${failure.first_failure ? ` — ${failure.first_failure}` : ''}`,
          '```',
          failure.report,
          '```',
        ])
      : ['(no failed verification or writer answer was recorded)']),
    '',
    '## Artifacts (retained until this report is resolved)',
    ...stuckArtifacts(state).map((dir) => `- ${dir}`),
    ...state.contexts.map((file) => `- Scout context: ${file}`),
    '',
  ].join('\n');
}
