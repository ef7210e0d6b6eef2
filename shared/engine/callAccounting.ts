import type { CallUsage } from './callUsage';
import type { ModelRole } from '../schemas/roles';
import type { RunState, StepTokens } from './runState';

/** A role's calls, tokens and status added to the run's metrics and the current step's tokens. */
export function account(
  state: RunState,
  role: ModelRole,
  calls: number,
  usage: CallUsage,
  status: 'idle' | 'failed',
): RunState {
  const previous = state.metrics.agents[role] ?? { status: 'idle', calls: 0, prompt_tokens: 0, completion_tokens: 0 };
  const stepId = state.current_step_id;
  return {
    ...state,
    model_calls: { ...state.model_calls, [role]: (state.model_calls[role] ?? 0) + calls },
    metrics: {
      ...state.metrics,
      agents: {
        ...state.metrics.agents,
        [role]: {
          status,
          calls: previous.calls + calls,
          prompt_tokens: previous.prompt_tokens + usage.prompt_tokens,
          completion_tokens: previous.completion_tokens + usage.completion_tokens,
          cached_tokens: (previous.cached_tokens ?? 0) + (usage.cached_tokens ?? 0),
          estimated: previous.estimated === true || usage.estimated === true,
        },
      },
      ...(stepId && calls > 0
        ? { steps: { ...state.metrics.steps, [stepId]: addStepTokens(state.metrics.steps?.[stepId], calls, usage) } }
        : {}),
    },
  };
}

function addStepTokens(previous: StepTokens | undefined, calls: number, usage: CallUsage): StepTokens {
  return {
    calls: (previous?.calls ?? 0) + calls,
    prompt_tokens: (previous?.prompt_tokens ?? 0) + usage.prompt_tokens,
    cached_tokens: (previous?.cached_tokens ?? 0) + (usage.cached_tokens ?? 0),
    completion_tokens: (previous?.completion_tokens ?? 0) + usage.completion_tokens,
    estimated: previous?.estimated === true || usage.estimated === true,
  };
}
