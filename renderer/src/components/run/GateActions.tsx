import type { KeyboardEvent as ReactKeyboardEvent, RefObject } from 'react';
import type { UserFileEdit } from '../../../../shared/engine/userEdit';
import type { GateView } from '../../../../shared/runView/types';
import { useGateEditStore } from '../../stores/gateEditStore';
import type { DecideGate } from './useGateDecision';

interface GateActionsProps {
  gate: GateView;
  feedback: string;
  setFeedback: (feedback: string) => void;
  comment: string;
  setComment: (comment: string) => void;
  commentBox: RefObject<HTMLTextAreaElement | null>;
  decide: DecideGate;
  sending: boolean;
  fileEdits: UserFileEdit[];
}

/** A waiting gate's reply: the feedback the agent is told, a comment, and Approve / Reject. */
export function GateActions({
  gate,
  feedback,
  setFeedback,
  comment,
  setComment,
  commentBox,
  ...buttons
}: GateActionsProps) {
  const { decide } = buttons;
  const onCommentKey = (event: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void decide(false);
    } else if (event.key === 'Escape') {
      (event.target as HTMLTextAreaElement).blur();
    }
  };
  return (
    <div className="gate-actions">
      {gate.verdict && (
        <div className="field">
          <label htmlFor={`feedback-${gate.gateId}`}>Supervisor feedback (edit to change what the agent is told)</label>
          <textarea
            id={`feedback-${gate.gateId}`}
            rows={2}
            value={feedback}
            onChange={(event) => setFeedback(event.target.value)}
          />
        </div>
      )}
      <div className="field">
        <label htmlFor={`comment-${gate.gateId}`}>Comment for the agent (sent with a rejection)</label>
        <textarea
          id={`comment-${gate.gateId}`}
          ref={commentBox}
          rows={2}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          onKeyDown={onCommentKey}
          placeholder="What must change? (R focuses this box; Ctrl/⌘+Enter rejects)"
        />
      </div>
      <GateDecisionButtons {...buttons} />
    </div>
  );
}

function GateDecisionButtons({
  decide,
  sending,
  fileEdits,
}: Pick<GateActionsProps, 'decide' | 'sending' | 'fileEdits'>) {
  return (
    <div className="form-actions">
      <DecisionButton
        kind="primary"
        onClick={() => void decide(true)}
        disabled={sending}
        shortcut="A"
        title="Approve (A)"
      >
        Approve
      </DecisionButton>
      {fileEdits.length > 0 && (
        <>
          <button
            type="button"
            className="primary"
            onClick={() => void decide(true, true)}
            disabled={sending}
            data-testid="approve-with-edits"
            title={fileEdits.map((edit) => edit.path).join('\n')}
          >
            Approve with my edits ({fileEdits.length} file{fileEdits.length === 1 ? '' : 's'})
          </button>
          <button type="button" onClick={() => useGateEditStore.getState().discard()} disabled={sending}>
            Discard my edits
          </button>
        </>
      )}
      <DecisionButton
        kind="danger"
        onClick={() => void decide(false)}
        disabled={sending}
        shortcut="R"
        title="Reject with the comment (R, then Ctrl/⌘+Enter)"
      >
        Reject with comment
      </DecisionButton>
    </div>
  );
}

/** A gate decision with its keyboard shortcut, shown on the button and told to assistive technology. */
function DecisionButton(props: {
  kind: 'primary' | 'danger';
  onClick: () => void;
  disabled: boolean;
  shortcut: string;
  title: string;
  children: string;
}) {
  return (
    <button
      type="button"
      className={props.kind}
      onClick={props.onClick}
      disabled={props.disabled}
      aria-keyshortcuts={props.shortcut}
      title={props.title}
    >
      {props.children} <kbd>{props.shortcut}</kbd>
    </button>
  );
}
