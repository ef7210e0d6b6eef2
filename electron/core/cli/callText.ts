import type { RunState } from '../../../shared/engine/runState';
import { partOrigin, type AgentCallRecord, type CallPart } from '../../../shared/schemas/agentCall';
import type { AgentCallSummary } from '../../../shared/runView/agentCalls';

/** A part's text with a note where it was cut to keep the record bounded. */
function partText(part: CallPart): string {
  return part.cut > 0 ? `${part.text}\n… (${part.cut} more characters not recorded)` : part.text;
}

/**
 * One recorded call as text: each message under its role, each part that someone other than the engine
 * wrote preceded by `[from …]` (the human's comment, the Supervisor's verdict), then the context items
 * with their path and kind, then the answer.
 */
export function callLines(record: AgentCallRecord): string[] {
  const tokens = `${record.usage.prompt_tokens} prompt + ${record.usage.completion_tokens} answer tokens`;
  const lines = [
    `Call ${record.call} · ${record.role} · ${record.purpose.replaceAll('_', ' ')}${record.step_id ? ` · ${record.step_id}` : ''} · ${record.model ?? 'no model'} · ${tokens} · ${record.attempts.length} model call(s)`,
  ];
  for (const message of record.messages) {
    lines.push('', `── ${message.role} ──`);
    for (const part of message.parts) {
      const origin = partOrigin(part);
      if (origin) lines.push(`[${origin}]`);
      lines.push(partText(part));
    }
  }
  record.context.forEach((part, index) => {
    const dropped = record.context_dropped.some((id) => part.path !== null && id.endsWith(`:${part.path}`))
      ? ' (left out by the model layer to fit)'
      : '';
    lines.push(
      '',
      `── context ${index + 1}/${record.context.length}: ${part.kind ?? 'item'} · ${part.path || '(no path)'}${dropped} ──`,
      partText(part),
    );
  });
  const { answer } = record;
  lines.push('', `── answer (${answer.outcome}${answer.code ? `: ${answer.code}` : ''}) ──`);
  if (answer.message) lines.push(answer.message);
  lines.push(
    answer.raw === null
      ? '(no answer came)'
      : answer.cut > 0
        ? `${answer.raw}\n… (${answer.cut} more characters not recorded)`
        : answer.raw,
  );
  return lines;
}

const pad = (rows: string[][]): string[] => {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
};

export interface RunShow {
  runId: string;
  goal: string;
  status: string;
  steps: { id: string; title: string; status: string; depth: number }[];
  calls: AgentCallSummary[];
}

export function runShow(state: RunState, calls: AgentCallSummary[]): RunShow {
  const steps = state.plans.flatMap((plan) =>
    plan.steps.map((step) => ({ id: step.id, title: step.title, status: step.status, depth: step.depth })),
  );
  return { runId: state.run_id, goal: state.goal, status: state.closed?.action ?? state.status, steps, calls };
}

/** The run's summary: goal, status, steps, and its agent calls by number (`--call N` shows one). */
export function runShowLines(show: RunShow): string[] {
  const lines = [`Run ${show.runId} · ${show.status}`, `Goal: ${show.goal.replaceAll('\n', '\n      ')}`, '', 'Steps:'];
  if (show.steps.length === 0) lines.push('  (no plan yet)');
  for (const step of show.steps) lines.push(`  ${'  '.repeat(step.depth)}${step.id}  ${step.status}  ${step.title}`);
  lines.push('', 'Calls:');
  if (show.calls.length === 0) return [...lines, '  (no agent calls)'];
  const rows = [['#', 'ROLE', 'PURPOSE', 'STEP', 'TOKENS', 'OUTCOME']];
  for (const call of show.calls) {
    const tokens = call.promptTokens === null ? '-' : `${call.promptTokens}+${call.completionTokens ?? 0}`;
    rows.push([
      String(call.call),
      call.role,
      call.purpose,
      call.stepId ?? '-',
      tokens,
      `${call.outcome}${call.recorded ? '' : ' (not recorded)'}`,
    ]);
  }
  return [
    ...lines,
    ...pad(rows).map((row) => `  ${row}`),
    '',
    `lathe runs --show ${show.runId} --call N shows what call N was sent and answered.`,
  ];
}
