import { firstLine, type EventDescribers } from './eventText';

function stopLabel(status: string | null): string {
  return status === 'paused' ? 'paused' : status === 'time_expired' ? 'time expired' : 'interrupted';
}

/** Timeline lines of the run as a whole: its start and end, its workspace, its counters and limits. */
export const RUN_EVENT_LINES: EventDescribers = {
  run_started: ({ data }) => ({
    text: `run started · ${data.workflow ?? '?'}: ${firstLine(data.goal ?? '')}`,
    tone: 'info',
  }),
  run_resumed: ({ data }) => {
    const orphaned = data.orphaned_events;
    const redo = orphaned ? ` · events ${orphaned.from}–${orphaned.to} redone` : '';
    return { text: `resumed from ${data.phase ?? '?'} (was ${data.previous_status ?? '?'})${redo}`, tone: 'info' };
  },
  workspace_ready: ({ data }) => ({
    text: `branch ${data.branch ?? '?'} (${data.mode ?? '?'}) · tests: ${(data.test_command ?? []).join(' ') || 'none detected'}${data.test_command_source ? ` (${data.test_command_source})` : ''}`,
    tone: 'info',
  }),
  workspace_setup: ({ data }) => ({
    text: `setup ${data.status ?? '?'}: ${(data.argv ?? []).join(' ')}${data.reason ? ` — ${data.reason}` : ''}${data.note ? ` · ${data.note}` : ''}`,
    tone: data.status === 'failed' ? 'fail' : data.restored?.length ? 'warn' : 'info',
  }),
  phase: ({ data }, at) => ({ text: `${data.from ?? '?'} → ${data.to ?? '?'}${at}`, tone: 'info' }),
  command_rejected: ({ data }) => ({
    text: `command rejected: ${data.command ?? '?'} (${data.reason ?? ''})`,
    tone: 'fail',
  }),
  budget_exhausted: ({ data }, at) => ({
    text: `${data.scope ?? '?'} budget used up${at}: ${data.reason ?? ''}`,
    tone: 'warn',
  }),
  definition_of_done: ({ data }) => {
    const open = (data.checks ?? []).filter((check) => !check.ok).map((check) => check.id);
    return {
      text:
        open.length === 0
          ? 'definition of done: every check holds'
          : `definition of done: not met — ${open.join(', ')}`,
      tone: open.length === 0 ? 'ok' : 'warn',
    };
  },
  artifacts_released: ({ data }) => ({
    text: `stuck-report artifacts released (${(data.dirs ?? []).length})`,
    tone: 'info',
  }),
  counters: ({ data }) => ({
    text: `verify loops ${data.total_verify_loops ?? 0}, consecutive failures ${data.consecutive_verify_failures ?? 0}, replans ${data.replans ?? 0} → ${data.decision ?? ''}`,
    tone: 'info',
  }),
  metrics: ({ data }) => ({
    text: `steps ${data.completed_steps ?? 0}/${data.total_steps ?? 0} completed, ${data.failed_steps ?? 0} failed`,
    tone: 'info',
  }),
  warning: ({ data }) => ({ text: `warning: ${data.message ?? ''}`, tone: 'warn' }),
  pause_requested: ({ data }, at) => ({
    text: `you asked to pause: the run stops after the current step (${data.phase ?? '?'}${at})`,
    tone: 'warn',
  }),
  run_stopped: ({ data }) => ({
    text: `${stopLabel(data.status ?? null)}: ${data.reason ?? ''} — resumable`,
    tone: 'warn',
  }),
  run_finished: ({ data }) => ({
    text: `run ${data.status ?? '?'} (exit ${data.exit_code ?? '?'}): ${data.reason ?? ''}`,
    tone: (data.status ?? null) === 'complete' ? 'ok' : 'fail',
  }),
  report_written: ({ data }) => ({
    text: `report written: ${[data.report ?? null, data.pr_description ?? null, data.stuck_report ?? null].filter(Boolean).join(', ')}`,
    tone: 'info',
  }),
  run_undone: ({ data }) => ({ text: `run undone: branch ${data.branch ?? '?'} removed`, tone: 'warn' }),
  run_merged: ({ data }) => ({ text: `merged into ${data.into ?? '?'}`, tone: 'ok' }),
};
