import {
  ScoutActionSchema,
  ScoutAnswerSchema,
  type ScoutAction,
  type ScoutReport,
} from '../../../shared/schemas/agents/scout';
import { roleBudget } from '../context/roleBudget';
import type { ChatMessage } from '../llm/types';
import type { ReadOnlyTools } from '../tools/types';
import { providerFittedRoom } from './answerRoom';
import type { AgentContext } from './agentContext';
import { agentSpecFor } from './registry';
import {
  failedCall,
  generateWithRetries,
  type AgentRunResult,
  type AgentUsage,
  type RunAgentOptions,
} from './runAgent';
import { buildMessages } from './buildMessages';

/** A bounded loop: a Scout may use this many tools, then must answer. */
export const SCOUT_MAX_STEPS = 6;
const RESULT_CHARS = 3_000;

export interface ScoutSandbox {
  /** The repository's test command in the Verifier's sandbox (Scout B). */
  runTests(): Promise<string>;
  /** An allowlisted command in the Verifier's sandbox (Scout B); a refused one is reported, not run. */
  runCommand(argv: string[]): Promise<string>;
}

export type ScoutRunResult =
  | { kind: 'answer'; report: ScoutReport; toolCalls: number; transcript: string[]; calls: number; usage: AgentUsage }
  | Extract<AgentRunResult, { kind: 'failed' }>;

function clip(text: string): string {
  return text.length > RESULT_CHARS
    ? `${text.slice(0, RESULT_CHARS)}\n… (${text.length - RESULT_CHARS} more characters)`
    : text;
}

async function runTool(
  action: Exclude<ScoutAction, { action: 'answer' }>,
  scout: 'A' | 'B',
  tools: ReadOnlyTools,
  sandbox: ScoutSandbox,
): Promise<string> {
  try {
    switch (action.action) {
      case 'list_files': {
        const { files, truncated } = await tools.listFiles({ under: action.under || undefined, limit: 200 });
        return `${files.join('\n')}${truncated ? '\n… (more files)' : ''}`;
      }
      case 'read_file': {
        const { content, truncated } = await tools.readFile(action.path, { maxBytes: RESULT_CHARS });
        return `${content}${truncated ? '\n… (truncated)' : ''}`;
      }
      case 'search': {
        const { hits, truncated } = await tools.searchText(action.query, { regex: action.regex, maxResults: 40 });
        return hits.length === 0
          ? 'no matches'
          : `${hits.map((hit) => `${hit.path}:${hit.line}: ${hit.text}`).join('\n')}${truncated ? '\n… (more matches)' : ''}`;
      }
      case 'repo_summary':
        return await tools.repoSummary({ maxBytes: RESULT_CHARS });
      case 'run_tests':
        return scout === 'B' ? await sandbox.runTests() : 'Scout A cannot run tests; ask Scout B.';
      case 'run_command':
        return scout === 'B' ? await sandbox.runCommand(action.argv) : 'Scout A cannot run commands; ask Scout B.';
      default:
        return action satisfies never;
    }
  } catch (error) {
    // A tool's failure is the Scout's information, not the run's failure.
    return `error: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Seed 004's pull-based Scout: read-only tools in a bounded loop, each model call constrained to the
 * action grammar and retried with backoff (invariant 9); the last step may only answer.
 */
export async function runScoutQuestion(
  ctx: AgentContext,
  sandbox: ScoutSandbox,
  options: RunAgentOptions,
): Promise<ScoutRunResult> {
  const spec = agentSpecFor('scout', ctx.workflow);
  if (!spec)
    return {
      kind: 'failed',
      code: 'NO_AGENT',
      message: 'no scout agent',
      raw: null,
      calls: 0,
      usage: { prompt_tokens: 0, completion_tokens: 0 },
    };
  const scout = ctx.state.scouting?.brief?.questions[ctx.state.scouting.next]?.scout ?? 'A';
  const { messages } = await buildMessages(spec, ctx);
  const conversation: ChatMessage[] = [...messages];
  const { contextSize } = roleBudget(ctx.state.config, 'scout');
  const transcript: string[] = [];
  const usage: AgentUsage = { prompt_tokens: 0, completion_tokens: 0 };
  let calls = 0;
  for (let step = 0; step < SCOUT_MAX_STEPS; step++) {
    const last = step === SCOUT_MAX_STEPS - 1;
    const request = {
      role: 'scout' as const,
      purpose: 'scout' as const,
      messages: conversation,
      schema: last ? ScoutAnswerSchema : ScoutActionSchema,
    };
    const call = await generateWithRetries(request, options, usage, providerFittedRoom(request, contextSize));
    calls += call.calls;
    if (!call.last?.ok) return { ...failedCall(call), calls };
    const action = ScoutActionSchema.parse(call.last.value);
    if (action.action === 'answer')
      return { kind: 'answer', report: action.report, toolCalls: step, transcript, calls, usage };
    const result = clip(await runTool(action, scout, ctx.tools, sandbox));
    transcript.push(`${JSON.stringify(action)} → ${result.split('\n')[0]?.slice(0, 160) ?? ''}`);
    conversation.push(
      { role: 'assistant', content: JSON.stringify(action) },
      {
        role: 'user',
        content: `Tool result (${action.action}):\n${result}\n\n${last ? '' : `You have ${SCOUT_MAX_STEPS - step - 1} step(s) left. `}Next action (JSON).`,
      },
    );
  }
  return { kind: 'failed', code: 'INVALID_OUTPUT', message: 'the scout did not answer', raw: null, calls, usage };
}
