import { readRunEvent } from '../engine/readRunEvent';
import type { RunLogEvent } from '../schemas/run';

/** How an agent call ended, from the log: `interrupted` when no answer, refusal or failure followed it. */
export type CallOutcome = 'output' | 'declined' | 'failed' | 'interrupted';

/** One agent call as the log tells it; its text is in `calls/<call>.json` (AgentCallRecord). */
export interface AgentCallSummary {
  /** The call's number: `agent_call`'s `call`, or its place among the log's agent calls in older logs (no record then). */
  call: number;
  seq: number;
  ts: string;
  role: string;
  purpose: string;
  stepId: string | null;
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  outcome: CallOutcome;
  /** Whether the log says a record was written for it (only logs that number their calls have records). */
  recorded: boolean;
}

const ENDS: Record<string, CallOutcome> = {
  agent_output: 'output',
  agent_declined: 'declined',
  agent_failed: 'failed',
  agent_raw: 'failed',
};

/**
 * The run's agent calls in order, each paired with the first end event of its role after it (a role
 * makes one call at a time). A call a crash cut short ends `interrupted`.
 */
export function listAgentCalls(events: readonly RunLogEvent[]): AgentCallSummary[] {
  const calls: AgentCallSummary[] = [];
  const open = new Map<string, AgentCallSummary>();
  for (const event of events) {
    const known = readRunEvent(event);
    if (known?.type === 'agent_call') {
      const summary: AgentCallSummary = {
        call: known.data.call ?? calls.length + 1,
        seq: event.seq,
        ts: event.ts,
        role: event.role,
        purpose: known.data.purpose ?? '?',
        stepId: known.data.step_id ?? null,
        model: known.data.model ?? null,
        promptTokens: null,
        completionTokens: null,
        outcome: 'interrupted',
        recorded: known.data.call !== undefined,
      };
      calls.push(summary);
      open.set(event.role, summary);
      continue;
    }
    const outcome = ENDS[event.type];
    const summary = outcome ? open.get(event.role) : undefined;
    if (!outcome || !summary) continue;
    // agent_failed follows agent_raw for the same call: the first end decides.
    open.delete(event.role);
    summary.outcome = outcome;
    if (known?.type === 'agent_output') {
      summary.promptTokens = known.data.usage?.prompt_tokens ?? null;
      summary.completionTokens = known.data.usage?.completion_tokens ?? null;
    }
  }
  return calls;
}
