import { readRunEvent, stepIdOf, type RunEventOf } from '../../../shared/engine/readRunEvent';
import { quoteGitPath } from '../../../shared/gitPath';
import type { RunLogEvent } from '../../../shared/schemas/run';

export type EventTone = 'ok' | 'fail' | 'warn' | 'info' | 'gate';

export interface EventSummary {
  text: string;
  tone: EventTone;
}

const seconds = (ms: number | null) => (ms === null ? '' : ` (${(ms / 1000).toFixed(1)} s)`);
const list = (items: string[], max = 4) =>
  items.length > max ? `${items.slice(0, max).join(', ')} +${items.length - max}` : items.join(', ');

/** One line for the timeline: what happened, in the words a user would use. */
export function describeEvent(event: RunLogEvent): EventSummary {
  const known = readRunEvent(event);
  // A type this version does not know (a newer Lathe wrote it): shown by its name.
  if (!known) return { text: event.type.replaceAll('_', ' '), tone: 'info' };
  const stepId = stepIdOf(known);
  const at = stepId ? ` ${stepId}` : '';
  const { type, data, role } = known;
  switch (type) {
    case 'run_started':
      return { text: `run started · ${data.workflow ?? '?'}: ${firstLine(data.goal ?? '')}`, tone: 'info' };
    case 'run_resumed': {
      const orphaned = data.orphaned_events;
      const redo = orphaned ? ` · events ${orphaned.from}–${orphaned.to} redone` : '';
      return { text: `resumed from ${data.phase ?? '?'} (was ${data.previous_status ?? '?'})${redo}`, tone: 'info' };
    }
    case 'workspace_ready':
      return {
        text: `branch ${data.branch ?? '?'} (${data.mode ?? '?'}) · tests: ${(data.test_command ?? []).join(' ') || 'none detected'}${data.test_command_source ? ` (${data.test_command_source})` : ''}`,
        tone: 'info',
      };
    case 'workspace_setup':
      return {
        text: `setup ${data.status ?? '?'}: ${(data.argv ?? []).join(' ')}${data.reason ? ` — ${data.reason}` : ''}${data.note ? ` · ${data.note}` : ''}`,
        tone: data.status === 'failed' ? 'fail' : data.restored?.length ? 'warn' : 'info',
      };
    case 'phase':
      return { text: `${data.from ?? '?'} → ${data.to ?? '?'}${at}`, tone: 'info' };
    case 'plan': {
      const tasks = data.tasks ?? [];
      const depth = data.depth ?? 0;
      return {
        text: `${depth > 0 ? `sub-plan (depth ${depth}) for ${data.parent_step_id ?? '?'}` : 'plan'} ${data.plan_id ?? ''}: ${tasks.length} step(s)`,
        tone: 'info',
      };
    }
    case 'plan_invalid':
      return { text: `invalid plan: ${data.reason ?? ''}`, tone: 'warn' };
    case 'step_started':
      return { text: `step${at} started: ${data.title ?? ''}`, tone: 'info' };
    case 'step_completed':
      return { text: `step${at} completed`, tone: 'ok' };
    case 'step_failed':
      return { text: `step${at} failed: ${data.reason ?? ''}`, tone: 'fail' };
    case 'step_blocked':
      return { text: `step${at} blocked: ${data.reason ?? ''}`, tone: 'warn' };
    case 'agent_call':
      return { text: `${role} called (${data.purpose ?? '?'})${at}`, tone: 'info' };
    case 'agent_context': {
      const included = data.included?.length ?? 0;
      const dropped = data.dropped?.length ?? 0;
      return {
        text: `context for ${data.purpose ?? '?'}${at}: ${data.used_tokens ?? '?'} of ${data.budget_tokens ?? '?'} tokens · ${included} included, ${dropped} dropped`,
        tone: 'info',
      };
    }
    case 'agent_output': {
      const { usage } = data;
      const tokens = usage ? ` · ${usage.completion_tokens} tokens out` : '';
      return { text: `${role} answered (${data.purpose ?? '?'})${tokens}`, tone: 'info' };
    }
    case 'agent_retry':
      return { text: `${role} retry ${data.attempt ?? ''}: ${data.code ?? ''} ${data.message ?? ''}`, tone: 'warn' };
    case 'agent_raw':
    case 'agent_failed':
    case 'agent_declined':
      return {
        text: `${role} ${type.replace('agent_', '')}: ${('reason' in data ? data.reason : undefined) ?? ''}`,
        tone: 'fail',
      };
    case 'patch':
      return {
        text: `edits to ${list((data.files ?? []).map((file) => quoteGitPath(file)))} (${data.format ?? '?'})`,
        tone: 'info',
      };
    case 'edit_rejected':
      return {
        text: `edit rejected${(data.path ?? null) ? ` (${quoteGitPath(data.path ?? '')})` : ''}: ${data.message ?? ''}`,
        tone: 'warn',
      };
    case 'commit':
      return {
        text: `commit ${(data.sha ?? '').slice(0, 10)} · ${list((data.files ?? []).map((file) => quoteGitPath(file)))}`,
        tone: 'ok',
      };
    case 'rollback':
      return {
        text: `rolled back ${(data.dropped ?? []).length} commit(s) to ${(data.to ?? '').slice(0, 10)}${data.reason ? `: ${data.reason}` : ''}`,
        tone: 'warn',
      };
    case 'test_result':
      return describeTest(data);
    case 'tester_report':
    case 'fix_plan':
      return {
        text: `tester: ${('summary' in data ? data.summary : undefined) ?? ('report' in data ? data.report : undefined) ?? ''}`,
        tone: 'blocking' in data && data.blocking === true ? 'warn' : 'info',
      };
    case 'gate_opened':
      return { text: `${data.kind ?? '?'} gate opened (${data.mode ?? '?'})${at}`, tone: 'gate' };
    case 'verdict':
      return {
        text: `supervisor, ${data.gate ?? '?'} gate: ${data.approved === true ? 'approved' : 'rejected'} · ${data.score ?? '?'}/${data.threshold ?? '?'} — ${data.feedback ?? ''}`,
        tone: data.approved === true ? 'ok' : 'fail',
      };
    case 'gate_pending':
      return { text: `${data.kind ?? '?'} gate waits for you${at}`, tone: 'gate' };
    case 'gate_decided':
      return {
        text: `you ${data.approved === true ? 'approved' : 'rejected'} the ${data.gate ?? ''} gate${data.comment ? `: “${data.comment}”` : ''}`,
        tone: data.approved === true ? 'ok' : 'fail',
      };
    case 'user_edit': {
      // A person's own change goes on record beside the agents': which files, and which existing tests.
      const files = Array.isArray(data.files) ? data.files.length : 0;
      const tests =
        Array.isArray(data.test_files) && data.test_files.length > 0
          ? `, changing existing tests (${data.test_files.join(', ')})`
          : '';
      return {
        text: `you edited ${files} file${files === 1 ? '' : 's'} at the ${data.gate ?? ''} gate${tests}: the tests run on your edit`,
        tone: 'gate',
      };
    }
    case 'gate_closed':
      return {
        text: `${data.gate ?? '?'} gate ${data.approved === true ? 'passed' : 'rejected'} by ${data.by ?? '?'}`,
        tone: data.approved === true ? 'ok' : 'fail',
      };
    case 'gate_unreviewed':
      return {
        text: `${data.gate ?? 'a'} gate not reviewed (the Supervisor failed: ${data.reason ?? '?'}): waits for you`,
        tone: 'gate',
      };
    case 'fix_plan_verdict':
      return {
        text: `supervisor, fix plan${at}: ${data.approved === true ? 'approved' : 'rejected'} · ${data.score ?? '?'}/${data.threshold ?? '?'} — ${data.feedback ?? ''}`,
        tone: data.approved === true ? 'ok' : 'fail',
      };
    case 'subplan_requested':
      return { text: `the coder asked for a sub-plan${at}: ${data.reason ?? ''}`, tone: 'warn' };
    case 'command_rejected':
      return { text: `command rejected: ${data.command ?? '?'} (${data.reason ?? ''})`, tone: 'fail' };
    case 'budget_exhausted':
      return { text: `${data.scope ?? '?'} budget used up${at}: ${data.reason ?? ''}`, tone: 'warn' };
    case 'definition_of_done': {
      const open = (data.checks ?? []).filter((check) => !check.ok).map((check) => check.id);
      return {
        text:
          open.length === 0
            ? 'definition of done: every check holds'
            : `definition of done: not met — ${open.join(', ')}`,
        tone: open.length === 0 ? 'ok' : 'warn',
      };
    }
    case 'artifacts_released':
      return { text: `stuck-report artifacts released (${(data.dirs ?? []).length})`, tone: 'info' };
    case 'gate_fallback':
      return { text: `${data.gate ?? 'a'} gate passed without review (the Supervisor failed)`, tone: 'warn' };
    case 'retry':
      return { text: `retry${at}: attempt ${data.attempt ?? '?'} (${data.feedback ?? ''})`, tone: 'warn' };
    case 'fix_cycle':
      return { text: `fix cycle ${data.cycle ?? '?'}/${data.max ?? '?'}${at}`, tone: 'warn' };
    case 'replan':
      return { text: `REPLAN ${data.replan ?? ''}: ${firstLine(data.reason ?? '')}`, tone: 'warn' };
    case 'replan_requested':
      return { text: `re-plan requested: ${data.reason ?? ''}`, tone: 'warn' };
    case 'counters':
      return {
        text: `verify loops ${data.total_verify_loops ?? 0}, consecutive failures ${data.consecutive_verify_failures ?? 0}, replans ${data.replans ?? 0} → ${data.decision ?? ''}`,
        tone: 'info',
      };
    case 'metrics':
      return {
        text: `steps ${data.completed_steps ?? 0}/${data.total_steps ?? 0} completed, ${data.failed_steps ?? 0} failed`,
        tone: 'info',
      };
    case 'warning':
      return { text: `warning: ${data.message ?? ''}`, tone: 'warn' };
    case 'pause_requested':
      return {
        text: `you asked to pause: the run stops after the current step (${data.phase ?? '?'}${at})`,
        tone: 'warn',
      };
    case 'run_stopped':
      return { text: `${stopLabel(data.status ?? null)}: ${data.reason ?? ''} — resumable`, tone: 'warn' };
    case 'run_finished':
      return {
        text: `run ${data.status ?? '?'} (exit ${data.exit_code ?? '?'}): ${data.reason ?? ''}`,
        tone: (data.status ?? null) === 'complete' ? 'ok' : 'fail',
      };
    case 'report_written':
      return {
        text: `report written: ${[data.report ?? null, data.pr_description ?? null, data.stuck_report ?? null].filter(Boolean).join(', ')}`,
        tone: 'info',
      };
    case 'run_undone':
      return { text: `run undone: branch ${data.branch ?? '?'} removed`, tone: 'warn' };
    case 'run_merged':
      return { text: `merged into ${data.into ?? '?'}`, tone: 'ok' };
    default:
      return { text: type.replaceAll('_', ' '), tone: 'info' };
  }
}

function stopLabel(status: string | null): string {
  return status === 'paused' ? 'paused' : status === 'time_expired' ? 'time expired' : 'interrupted';
}

function describeTest(data: RunEventOf<'test_result'>['data']): EventSummary {
  const status = data.status ?? '?';
  const { counts } = data;
  const figures = counts ? ` ${counts.passed} passed, ${counts.failed} failed` : '';
  const purpose =
    (data.purpose ?? null) === 'preflight'
      ? 'preflight tests'
      : (data.purpose ?? null) === 'final'
        ? 'final test run'
        : 'tests';
  return {
    text: `${purpose}: ${status}${figures}${seconds(data.duration_ms ?? null)}`,
    tone: status === 'PASS' ? 'ok' : 'fail',
  };
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 140 ? `${line.slice(0, 139)}…` : line;
}
