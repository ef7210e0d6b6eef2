import type { RunLogEvent } from '../../../shared/schemas/run';
import { num, record, records, str, strList } from './eventData';

export type EventTone = 'ok' | 'fail' | 'warn' | 'info' | 'gate';

export interface EventSummary {
  text: string;
  tone: EventTone;
}

const seconds = (ms: number | null) => (ms === null ? '' : ` (${(ms / 1000).toFixed(1)} s)`);
const list = (items: string[], max = 4) => (items.length > max ? `${items.slice(0, max).join(', ')} +${items.length - max}` : items.join(', '));

/** One line for the timeline: what happened, in the words a user would use. */
export function describeEvent(event: RunLogEvent): EventSummary {
  const { data } = event;
  const stepId = str(data, 'step_id') ?? str(data, 'task_id');
  const at = stepId ? ` ${stepId}` : '';
  switch (event.type) {
    case 'run_started':
      return { text: `run started · ${str(data, 'workflow') ?? '?'}: ${firstLine(str(data, 'goal') ?? '')}`, tone: 'info' };
    case 'run_resumed': {
      const orphaned = record(data.orphaned_events);
      const redo = orphaned ? ` · events ${num(orphaned, 'from')}–${num(orphaned, 'to')} redone` : '';
      return { text: `resumed from ${str(data, 'phase') ?? '?'} (was ${str(data, 'previous_status') ?? '?'})${redo}`, tone: 'info' };
    }
    case 'workspace_ready':
      return { text: `branch ${str(data, 'branch') ?? '?'} (${str(data, 'mode') ?? '?'}) · tests: ${strList(data, 'test_command').join(' ') || 'none detected'}`, tone: 'info' };
    case 'phase':
      return { text: `${str(data, 'from') ?? '?'} → ${str(data, 'to') ?? '?'}${at}`, tone: 'info' };
    case 'plan': {
      const tasks = records(data.tasks);
      const depth = num(data, 'depth') ?? 0;
      return { text: `${depth > 0 ? `sub-plan (depth ${depth}) for ${str(data, 'parent_step_id') ?? '?'}` : 'plan'} ${str(data, 'plan_id') ?? ''}: ${tasks.length} step(s)`, tone: 'info' };
    }
    case 'plan_invalid':
      return { text: `invalid plan: ${str(data, 'reason') ?? ''}`, tone: 'warn' };
    case 'step_started':
      return { text: `step${at} started: ${str(data, 'title') ?? ''}`, tone: 'info' };
    case 'step_completed':
      return { text: `step${at} completed`, tone: 'ok' };
    case 'step_failed':
      return { text: `step${at} failed: ${str(data, 'reason') ?? ''}`, tone: 'fail' };
    case 'step_blocked':
      return { text: `step${at} blocked: ${str(data, 'reason') ?? ''}`, tone: 'warn' };
    case 'agent_call':
      return { text: `${event.role} called (${str(data, 'purpose') ?? '?'})${at}`, tone: 'info' };
    case 'agent_context': {
      const included = Array.isArray(data.included) ? data.included.length : 0;
      const dropped = Array.isArray(data.dropped) ? data.dropped.length : 0;
      return { text: `context for ${str(data, 'purpose') ?? '?'}${at}: ${num(data, 'used_tokens') ?? '?'} of ${num(data, 'budget_tokens') ?? '?'} tokens · ${included} included, ${dropped} dropped`, tone: 'info' };
    }
    case 'agent_output': {
      const usage = record(data.usage);
      const tokens = usage ? ` · ${num(usage, 'completion_tokens') ?? 0} tokens out` : '';
      return { text: `${event.role} answered (${str(data, 'purpose') ?? '?'})${tokens}`, tone: 'info' };
    }
    case 'agent_retry':
      return { text: `${event.role} retry ${num(data, 'attempt') ?? ''}: ${str(data, 'code') ?? ''} ${str(data, 'message') ?? ''}`, tone: 'warn' };
    case 'agent_raw':
    case 'agent_failed':
    case 'agent_declined':
      return { text: `${event.role} ${event.type.replace('agent_', '')}: ${str(data, 'reason') ?? str(data, 'message') ?? ''}`, tone: 'fail' };
    case 'patch':
      return { text: `edits to ${list(strList(data, 'files'))} (${str(data, 'format') ?? '?'})`, tone: 'info' };
    case 'edit_rejected':
      return { text: `edit rejected${str(data, 'path') ? ` (${str(data, 'path')})` : ''}: ${str(data, 'message') ?? ''}`, tone: 'warn' };
    case 'commit':
      return { text: `commit ${(str(data, 'sha') ?? '').slice(0, 10)} · ${list(strList(data, 'files'))}`, tone: 'ok' };
    case 'rollback':
      return { text: `rolled back ${strList(data, 'dropped').length} commit(s) to ${(str(data, 'to') ?? '').slice(0, 10)}`, tone: 'warn' };
    case 'test_result':
      return describeTest(data);
    case 'tester_report':
    case 'fix_plan':
      return { text: `tester: ${str(data, 'summary') ?? str(data, 'report') ?? ''}`, tone: data.blocking === true ? 'warn' : 'info' };
    case 'gate_opened':
      return { text: `${str(data, 'kind') ?? '?'} gate opened (${str(data, 'mode') ?? '?'})${at}`, tone: 'gate' };
    case 'verdict':
      return {
        text: `supervisor, ${str(data, 'gate') ?? '?'} gate: ${data.approved === true ? 'approved' : 'rejected'} · ${num(data, 'score') ?? '?'}/${num(data, 'threshold') ?? '?'} — ${str(data, 'feedback') ?? ''}`,
        tone: data.approved === true ? 'ok' : 'fail',
      };
    case 'gate_pending':
      return { text: `${str(data, 'kind') ?? '?'} gate waits for you${at}`, tone: 'gate' };
    case 'gate_decided':
      return { text: `you ${data.approved === true ? 'approved' : 'rejected'} the ${str(data, 'gate') ?? ''} gate${str(data, 'comment') ? `: “${str(data, 'comment')}”` : ''}`, tone: data.approved === true ? 'ok' : 'fail' };
    case 'gate_closed':
      return { text: `${str(data, 'gate') ?? '?'} gate ${data.approved === true ? 'passed' : 'rejected'} by ${str(data, 'by') ?? '?'}`, tone: data.approved === true ? 'ok' : 'fail' };
    case 'gate_unreviewed':
      return { text: `${str(data, 'gate') ?? 'a'} gate not reviewed (the Supervisor failed: ${str(data, 'reason') ?? '?'}): waits for you`, tone: 'gate' };
    case 'fix_plan_verdict':
      return { text: `supervisor, fix plan${at}: ${data.approved === true ? 'approved' : 'rejected'} · ${num(data, 'score') ?? '?'}/${num(data, 'threshold') ?? '?'} — ${str(data, 'feedback') ?? ''}`, tone: data.approved === true ? 'ok' : 'fail' };
    case 'subplan_requested':
      return { text: `the coder asked for a sub-plan${at}: ${str(data, 'reason') ?? ''}`, tone: 'warn' };
    case 'command_rejected':
      return { text: `command rejected: ${str(data, 'command') ?? '?'} (${str(data, 'reason') ?? ''})`, tone: 'fail' };
    case 'budget_exhausted':
      return { text: `${str(data, 'scope') ?? '?'} budget used up${at}: ${str(data, 'reason') ?? ''}`, tone: 'warn' };
    case 'definition_of_done': {
      const open = records(data.checks).filter((check) => check.ok !== true).map((check) => str(check, 'id') ?? '?');
      return { text: open.length === 0 ? 'definition of done: every check holds' : `definition of done: not met — ${open.join(', ')}`, tone: open.length === 0 ? 'ok' : 'warn' };
    }
    case 'artifacts_released':
      return { text: `stuck-report artifacts released (${strList(data, 'dirs').length})`, tone: 'info' };
    case 'gate_fallback':
      return { text: `${str(data, 'gate') ?? 'a'} gate passed without review (the Supervisor failed)`, tone: 'warn' };
    case 'retry':
      return { text: `retry${at}: attempt ${num(data, 'attempt') ?? '?'} (${str(data, 'feedback') ?? ''})`, tone: 'warn' };
    case 'fix_cycle':
      return { text: `fix cycle ${num(data, 'cycle') ?? '?'}/${num(data, 'max') ?? '?'}${at}`, tone: 'warn' };
    case 'replan':
      return { text: `REPLAN ${num(data, 'replan') ?? ''}: ${firstLine(str(data, 'reason') ?? '')}`, tone: 'warn' };
    case 'replan_requested':
      return { text: `re-plan requested: ${str(data, 'reason') ?? ''}`, tone: 'warn' };
    case 'counters':
      return { text: `verify loops ${num(data, 'total_verify_loops') ?? 0}, consecutive failures ${num(data, 'consecutive_verify_failures') ?? 0}, replans ${num(data, 'replans') ?? 0} → ${str(data, 'decision') ?? ''}`, tone: 'info' };
    case 'metrics':
      return { text: `steps ${num(data, 'completed_steps') ?? 0}/${num(data, 'total_steps') ?? 0} completed, ${num(data, 'failed_steps') ?? 0} failed`, tone: 'info' };
    case 'warning':
      return { text: `warning: ${str(data, 'message') ?? ''}`, tone: 'warn' };
    case 'pause_requested':
      return { text: `you asked to pause: the run stops after the current step (${str(data, 'phase') ?? '?'}${at})`, tone: 'warn' };
    case 'run_stopped':
      return { text: `${stopLabel(str(data, 'status'))}: ${str(data, 'reason') ?? ''} — resumable`, tone: 'warn' };
    case 'run_finished':
      return { text: `run ${str(data, 'status') ?? '?'} (exit ${num(data, 'exit_code') ?? '?'}): ${str(data, 'reason') ?? ''}`, tone: str(data, 'status') === 'complete' ? 'ok' : 'fail' };
    case 'report_written':
      return { text: `report written: ${[str(data, 'report'), str(data, 'pr_description'), str(data, 'stuck_report')].filter(Boolean).join(', ')}`, tone: 'info' };
    case 'run_undone':
      return { text: `run undone: branch ${str(data, 'branch') ?? '?'} removed`, tone: 'warn' };
    case 'run_merged':
      return { text: `merged into ${str(data, 'into') ?? '?'}`, tone: 'ok' };
    default:
      return { text: event.type.replaceAll('_', ' '), tone: 'info' };
  }
}

function stopLabel(status: string | null): string {
  return status === 'paused' ? 'paused' : status === 'time_expired' ? 'time expired' : 'interrupted';
}

function describeTest(data: Record<string, unknown>): EventSummary {
  const status = str(data, 'status') ?? '?';
  const counts = record(data.counts);
  const figures = counts ? ` ${num(counts, 'passed') ?? 0} passed, ${num(counts, 'failed') ?? 0} failed` : '';
  const purpose = str(data, 'purpose') === 'preflight' ? 'preflight tests' : str(data, 'purpose') === 'final' ? 'final test run' : 'tests';
  return { text: `${purpose}: ${status}${figures}${seconds(num(data, 'duration_ms'))}`, tone: status === 'PASS' ? 'ok' : 'fail' };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}
