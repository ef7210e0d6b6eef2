import type { RunEvent, RunEventOf } from '../../../shared/engine/readRunEvent';
import { fallbackCause } from '../../../shared/engine/editFormatFallback';
import type { RunEventType } from '../../../shared/engine/runEvents';
import { quoteGitPath } from '../../../shared/gitPath';

export const str = (value: unknown) => (typeof value === 'string' ? value : '');
const short = (sha: unknown) => str(sha).slice(0, 10);

/** One event's progress: a line, several, or nothing. */
type ProgressText = string | string[] | null;

type ProgressFormats = {
  [T in RunEventType]?: (data: RunEventOf<T>['data'], event: RunEventOf<T>) => ProgressText;
};

function testResultLine(d: RunEventOf<'test_result'>['data']): string {
  const counts = d.counts;
  const label = d.purpose === 'preflight' || d.purpose === 'baseline' ? 'tests before any change' : 'tests';
  return `    ${label}: ${str(d.status)}${counts ? ` ${counts.passed} passed, ${counts.failed} failed` : ''} (${((Number(d.duration_ms) || 0) / 1000).toFixed(1)} s)${d.reason ? ` — ${str(d.reason)}` : ''}`;
}

function agentGaveUpLine(d: { reason?: string }, event: RunEvent): string {
  return `    ${event.role} ${event.type === 'agent_declined' ? 'declined' : 'failed'}: ${str(d.reason)}`;
}

/** The progress of every event whose lines depend on the event alone (the printer keeps the rest). */
const PROGRESS_FORMATS: ProgressFormats = {
  run_started: (d, event) =>
    `▶ run ${event.run_id} · workflow ${str(d.workflow)} (seed ${str(d.seed)})${d.follow_up_of ? ` · follow-up of ${d.follow_up_of}, from ${(d.start_commit ?? '').slice(0, 10)}` : ''}`,
  run_resumed: (d, event) => `↻ resuming ${event.run_id} from phase ${str(d.phase)}`,
  workspace_ready: (d) =>
    `  branch ${str(d.branch)} (${str(d.mode)}) · tests: ${d.test_command ? d.test_command.join(' ') : 'none detected'}${d.test_command_source ? ` (${d.test_command_source})` : ''}`,
  workspace_setup: (d) =>
    `  setup ${str(d.status)}: ${(d.argv ?? []).join(' ')}${d.reason ? ` — ${d.reason}` : ''}${d.note ? ` · ${d.note}` : ''}`,
  agent_retry: (d, event) =>
    `    ${event.role}: ${str(d.code)} (${str(d.message).slice(0, 120)}), retrying (${String(d.attempt)})`,
  patch: (d, event) =>
    `    ${event.role} → ${d.files?.length ? `edits ${d.files.map(quoteGitPath).join(', ')}` : 'no edits'}`,
  edit_rejected: (d) =>
    `    ✗ edits rejected: ${str(d.rule) || str(d.code)} ${quoteGitPath(str(d.path))} — ${str(d.message)}`,
  // An answer that changed no file (a verify-only task) makes no commit: say so, not `commit  ()`.
  commit: (d) =>
    d.sha ? `    commit ${short(d.sha)} (${(d.files ?? []).map(quoteGitPath).join(', ')})` : '    nothing to commit',
  test_result: testResultLine,
  tester_report: (d) => `    tester: ${d.passed ? 'passed' : 'failed'}`,
  fix_plan: (d) =>
    `    tester: ${str(d.summary).slice(0, 160)}${d.fix_plan?.length ? ` (${d.fix_plan.length}-point fix plan)` : ''}`,
  verdict: (d) =>
    `    supervisor (${str(d.gate)} gate): ${d.approved ? 'approved' : 'rejected'} · score ${String(d.score)}/${String(d.threshold)}${d.escalation && d.escalation !== 'NONE' ? ` · ${str(d.escalation)}` : ''} — ${str(d.feedback).slice(0, 160)}`,
  gate_decided: (d) =>
    `    you ${d.approved ? 'approved' : 'rejected'} the ${str(d.gate)} gate${d.comment ? `: ${str(d.comment)}` : ''}`,
  counters: (d) =>
    d.decision === 'retry'
      ? null
      : `    verify loops ${String(d.total_verify_loops)}, consecutive failures ${String(d.consecutive_verify_failures)} → ${str(d.decision)}`,
  retry: (d) => `    attempt ${String(d.attempt)} (${str(d.feedback)} fed back)`,
  fix_cycle: (d) => `    fix cycle ${String(d.cycle)}/${String(d.max)} (the Tester's fix plan goes back to the Coder)`,
  edit_format_fallback: (d) =>
    `    edit format ${str(d.from)} → ${str(d.to)} for the rest of the run: ${fallbackCause(str(d.reason))}`,
  rollback: (d) =>
    `    rolled back to ${short(d.to)} (${d.dropped?.length ?? 0} commit(s) dropped)${d.reason ? `: ${d.reason}` : ''}`,
  step_blocked: (d) => `    ${str(d.step_id)} blocked → sub-plan (depth ${Number(d.depth) + 1})`,
  step_failed: (d) => `    ✗ ${str(d.step_id)} failed: ${str(d.reason).slice(0, 160)}`,
  replan: (d) => `  ↻ REPLAN ${String(d.replan)}`,
  budget_exhausted: (d) => `    ⏱ ${str(d.reason)}`,
  scout_brief: (d) => [
    `  editor brief: ${str(d.behavior_change)}`,
    ...(d.questions ?? []).map((question) => `    asks Scout ${question.scout}: ${question.question}`),
  ],
  scout_report: (d) =>
    `    Scout ${str(d.scout)} → ${str(d.context_file)} (${String(d.tool_calls)} tool call(s)): ${str(d.report?.summary).slice(0, 140)}`,
  agent_declined: agentGaveUpLine,
  agent_failed: agentGaveUpLine,
  warning: (d) => `    ⚠ ${str(d.message)}`,
  run_stopped: (d) => `■ ${str(d.status)}: ${str(d.reason)} (resumable)`,
  run_finished: (d) =>
    `${d.status === 'complete' ? '✔' : '✘'} ${str(d.status)} (exit ${String(d.exit_code)}): ${str(d.reason)}`,
};

/** The lines an event prints; none for an event the progress does not show. */
export function progressLines(event: RunEvent): string[] {
  // The table is keyed by the event's type, so its entry takes this very event; the compiler cannot pair the two.
  const format = PROGRESS_FORMATS[event.type] as
    ((data: RunEvent['data'], event: RunEvent) => ProgressText) | undefined;
  const text = format ? format(event.data, event) : null;
  return text === null ? [] : typeof text === 'string' ? [text] : text;
}
