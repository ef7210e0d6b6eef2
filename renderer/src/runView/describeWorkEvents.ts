import type { RunEventOf } from '../../../shared/engine/readRunEvent';
import { quoteGitPath } from '../../../shared/gitPath';
import { firstLine, list, seconds, type EventDescribers, type EventSummary } from './eventText';

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

function describeAgentTrouble({
  type,
  data,
  role,
}: RunEventOf<'agent_raw'> | RunEventOf<'agent_failed'> | RunEventOf<'agent_declined'>): EventSummary {
  return {
    text: `${role} ${type.replace('agent_', '')}: ${('reason' in data ? data.reason : undefined) ?? ''}`,
    tone: 'fail',
  };
}

function describeTesterFindings({ data }: RunEventOf<'tester_report'> | RunEventOf<'fix_plan'>): EventSummary {
  return {
    text: `tester: ${('summary' in data ? data.summary : undefined) ?? ('report' in data ? data.report : undefined) ?? ''}`,
    tone: 'blocking' in data && data.blocking === true ? 'warn' : 'info',
  };
}

/** Timeline lines of the work itself: plans and steps, agent calls, edits and commits, tests, retries. */
export const WORK_EVENT_LINES: EventDescribers = {
  plan: ({ data }) => {
    const tasks = data.tasks ?? [];
    const depth = data.depth ?? 0;
    return {
      text: `${depth > 0 ? `sub-plan (depth ${depth}) for ${data.parent_step_id ?? '?'}` : 'plan'} ${data.plan_id ?? ''}: ${tasks.length} step(s)`,
      tone: 'info',
    };
  },
  plan_invalid: ({ data }) => ({ text: `invalid plan: ${data.reason ?? ''}`, tone: 'warn' }),
  step_started: ({ data }, at) => ({ text: `step${at} started: ${data.title ?? ''}`, tone: 'info' }),
  step_completed: (_event, at) => ({ text: `step${at} completed`, tone: 'ok' }),
  step_failed: ({ data }, at) => ({ text: `step${at} failed: ${data.reason ?? ''}`, tone: 'fail' }),
  step_blocked: ({ data }, at) => ({ text: `step${at} blocked: ${data.reason ?? ''}`, tone: 'warn' }),
  agent_call: ({ data, role }, at) => ({ text: `${role} called (${data.purpose ?? '?'})${at}`, tone: 'info' }),
  agent_context: ({ data }, at) => {
    const included = data.included?.length ?? 0;
    const dropped = data.dropped?.length ?? 0;
    return {
      text: `context for ${data.purpose ?? '?'}${at}: ${data.used_tokens ?? '?'} of ${data.budget_tokens ?? '?'} tokens · ${included} included, ${dropped} dropped`,
      tone: 'info',
    };
  },
  agent_output: ({ data, role }) => {
    const { usage } = data;
    const tokens = usage ? ` · ${usage.completion_tokens} tokens out` : '';
    return { text: `${role} answered (${data.purpose ?? '?'})${tokens}`, tone: 'info' };
  },
  agent_retry: ({ data, role }) => ({
    text: `${role} retry ${data.attempt ?? ''}: ${data.code ?? ''} ${data.message ?? ''}`,
    tone: 'warn',
  }),
  agent_raw: describeAgentTrouble,
  agent_failed: describeAgentTrouble,
  agent_declined: describeAgentTrouble,
  patch: ({ data }) => ({
    text: `edits to ${list((data.files ?? []).map((file) => quoteGitPath(file)))} (${data.format ?? '?'})`,
    tone: 'info',
  }),
  edit_rejected: ({ data }) => ({
    text: `edit rejected${(data.path ?? null) ? ` (${quoteGitPath(data.path ?? '')})` : ''}: ${data.message ?? ''}`,
    tone: 'warn',
  }),
  commit: ({ data }) => ({
    text: `commit ${(data.sha ?? '').slice(0, 10)} · ${list((data.files ?? []).map((file) => quoteGitPath(file)))}`,
    tone: 'ok',
  }),
  rollback: ({ data }) => ({
    text: `rolled back ${(data.dropped ?? []).length} commit(s) to ${(data.to ?? '').slice(0, 10)}${data.reason ? `: ${data.reason}` : ''}`,
    tone: 'warn',
  }),
  edit_format_fallback: ({ data }) => ({
    text: `edit format ${data.from ?? '?'} → ${data.to ?? '?'} for the rest of the run: ${firstLine(data.reason ?? '')}`,
    tone: 'warn',
  }),
  test_result: ({ data }) => describeTest(data),
  tester_report: describeTesterFindings,
  fix_plan: describeTesterFindings,
  subplan_requested: ({ data }, at) => ({
    text: `the coder asked for a sub-plan${at}: ${data.reason ?? ''}`,
    tone: 'warn',
  }),
  retry: ({ data }, at) => ({
    text: `retry${at}: attempt ${data.attempt ?? '?'} (${data.feedback ?? ''})`,
    tone: 'warn',
  }),
  fix_cycle: ({ data }, at) => ({ text: `fix cycle ${data.cycle ?? '?'}/${data.max ?? '?'}${at}`, tone: 'warn' }),
  replan: ({ data }) => ({ text: `REPLAN ${data.replan ?? ''}: ${firstLine(data.reason ?? '')}`, tone: 'warn' }),
  replan_requested: ({ data }) => ({ text: `re-plan requested: ${data.reason ?? ''}`, tone: 'warn' }),
};
