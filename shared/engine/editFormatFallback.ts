import type { Transition } from './actions';
import type { AgentPurpose } from './agentPurpose';
import type { z } from 'zod';
import type { EditFormatNameSchema } from './runConfig';
import type { RunState } from './runState';

type EditFormatName = z.infer<typeof EditFormatNameSchema>;

/** The edit format the writer answers in now: the configured one, unless the run fell back from whole-file. */
export function writerFormat(state: RunState): EditFormatName {
  return state.edit_format_fallback?.format ?? state.config.edit_format;
}

/** A fallback's reason without the overflow's advice to choose another format: the switch has taken it. */
export function fallbackCause(reason: string): string {
  return reason.split(';')[0] ?? '';
}

/** What a whole-file writer falls back to: only the changed blocks are written, so a file of any size fits. */
const FALLBACK_FORMAT: EditFormatName = 'search-replace';

/**
 * A whole-file writer whose files cannot be shown and rewritten in its window writes search-replace
 * blocks instead, for the rest of the run (decision 105): the file will not shrink, and ending the run
 * there leaves the user nothing. Once only: a window too small for search-replace too ends the run.
 */
export function fallBackFromWholeFile(
  state: RunState,
  failure: { code: string; purpose: AgentPurpose; message: string },
): Transition | null {
  if (failure.code !== 'CONTEXT_OVERFLOW' || failure.purpose !== 'code') return null;
  if (writerFormat(state) !== 'whole-file' || state.edit_format_fallback !== null) return null;
  return {
    state: { ...state, edit_format_fallback: { format: FALLBACK_FORMAT, reason: failure.message } },
    events: [
      {
        role: 'engine',
        type: 'edit_format_fallback',
        data: {
          step_id: state.current_step_id,
          from: 'whole-file',
          to: FALLBACK_FORMAT,
          reason: failure.message,
        },
      },
    ],
  };
}
