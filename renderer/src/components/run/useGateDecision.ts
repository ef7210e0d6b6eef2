import { useEffect, useRef, useState, type RefObject } from 'react';
import type { UserFileEdit } from '../../../../shared/engine/userEdit';
import type { GateView } from '../../../../shared/runView/types';
import { client, errorMessage, unwrap } from '../../api/client';
import { isTyping } from '../../hooks/useGlobalShortcuts';
import { useGateEditStore } from '../../stores/gateEditStore';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';

export type DecideGate = (approved: boolean, withEdits?: boolean) => Promise<void>;

interface GateReply {
  repo: string;
  runId: string;
  gate: GateView;
  comment: string;
  /** The Supervisor feedback as the person left it; sent only when they changed it. */
  feedback: string;
  fileEdits: UserFileEdit[];
}

/** Sends the person's decision on a gate, one at a time, and tells them how it went. */
export function useGateDecision({ repo, runId, gate, comment, feedback, fileEdits }: GateReply) {
  const notify = useUiStore((state) => state.notify);
  const [sending, setSending] = useState(false);

  /** `withEdits`: approve with the person's edits of the diff (Changes tab), which the core commits and tests. */
  const decide: DecideGate = async (approved, withEdits = false) => {
    if (sending) return;
    setSending(true);
    try {
      const edited = gate.verdict && feedback.trim() !== gate.verdict.feedback ? feedback.trim() : null;
      const edits = approved && withEdits && fileEdits.length > 0 ? { edits: fileEdits } : {};
      const result = unwrap(
        await client().request('gate/decide', {
          repo,
          runId,
          gateId: gate.gateId,
          approved,
          comment: comment.trim() || null,
          ...(edited !== null ? { feedback: edited } : {}),
          ...edits,
        }),
      );
      if (!result.accepted)
        notify('error', `The ${gate.kind} gate is no longer waiting (already decided, or the run moved on).`);
      else
        notify(
          'ok',
          `${gate.kind} gate ${approved ? 'approved' : 'rejected'}${'edits' in edits ? ' with your edits; the tests run on them' : ''}${result.resumed ? '; the run resumed' : ''}.`,
        );
      // A decided gate's edits mean nothing any more; a refused decision keeps them to fix.
      if (result.accepted) useGateEditStore.getState().discard();
      await useRunViewStore.getState().refreshState();
    } catch (error) {
      notify('error', errorMessage(error));
    } finally {
      setSending(false);
    }
  };
  return { decide, sending };
}

/** A approves the waiting gate, R goes to the comment box; not while typing, with a modifier, or under a dialog. */
export function useGateShortcuts(
  canDecide: boolean,
  decide: DecideGate,
  commentBox: RefObject<HTMLTextAreaElement | null>,
) {
  const decideRef = useRef(decide);
  useEffect(() => {
    decideRef.current = decide;
  });

  useEffect(() => {
    if (!canDecide) return;
    const onKey = (event: KeyboardEvent) => {
      if (
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        isTyping(event.target) ||
        document.querySelector('[aria-modal="true"]')
      )
        return;
      if (event.key === 'a' || event.key === 'A') {
        event.preventDefault();
        void decideRef.current(true);
      } else if (event.key === 'r' || event.key === 'R') {
        event.preventDefault();
        commentBox.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [canDecide, commentBox]);
}
