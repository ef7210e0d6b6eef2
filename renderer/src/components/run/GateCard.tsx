import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { client, errorMessage, unwrap } from '../../api/client';
import { isTyping } from '../../hooks/useGlobalShortcuts';
import type { GateView } from '../../../../shared/runView/types';
import { editsFor, useGateEditStore } from '../../stores/gateEditStore';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';
import { GateSubject } from './GateSubject';

const STATUS_LABELS: Record<GateView['status'], string> = {
  open: 'under review',
  pending: 'waiting for you',
  approved: 'approved',
  rejected: 'rejected',
  abandoned: 'closed (run ended)',
};

/** A gate with the Supervisor's verdict; when it waits for the user, Approve / Reject-with-comment. */
export function GateCard({
  repo,
  runId,
  gate,
  actionable = false,
}: {
  repo: string;
  runId: string;
  gate: GateView;
  actionable?: boolean;
}) {
  const notify = useUiStore((state) => state.notify);
  const [comment, setComment] = useState('');
  const [feedback, setFeedback] = useState(gate.verdict?.feedback ?? '');
  const [sending, setSending] = useState(false);
  const commentBox = useRef<HTMLTextAreaElement>(null);
  const canDecide = actionable && gate.status === 'pending';
  const editGateId = useGateEditStore((state) => state.gateId);
  const editFiles = useGateEditStore((state) => state.files);
  const fileEdits =
    canDecide && editGateId === gate.gateId ? editsFor({ gateId: editGateId, files: editFiles }, gate.gateId) : [];

  /** `withEdits`: approve with the person's edits of the diff (Changes tab), which the core commits and tests. */
  const decide = async (approved: boolean, withEdits = false) => {
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
  }, [canDecide]);

  const onCommentKey = (event: ReactKeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void decide(false);
    } else if (event.key === 'Escape') {
      (event.target as HTMLTextAreaElement).blur();
    }
  };

  const verdict = gate.verdict;
  const passes = verdict ? verdict.score >= verdict.threshold && verdict.approved : null;
  const headingId = `gate-${gate.gateId}-heading`;
  return (
    <section
      className={`gate-card gate-${gate.status}${canDecide ? ' gate-actionable' : ''}`}
      aria-labelledby={headingId}
      data-testid={canDecide ? 'pending-gate' : 'gate-card'}
      data-gate-id={gate.gateId}
    >
      <div className="gate-title-row">
        <h3 id={headingId} tabIndex={-1}>
          {gate.kind} gate{gate.stepId ? ` · ${gate.stepId}` : ''}{' '}
          <span className={`gate-status gate-status-${gate.status}`}>{STATUS_LABELS[gate.status]}</span>
        </h3>
        <span className="muted small">
          mode {gate.mode}
          {gate.decidedBy ? ` · decided by ${gate.decidedBy}` : ''}
          {gate.fallback ? ' · passed without review (Supervisor failed)' : ''}
        </span>
      </div>
      {gate.unreviewed && (
        <p className="error-text" data-testid="gate-unreviewed">
          The Supervisor could not review this gate ({gate.unreviewed}): it passes only if you approve it.
        </p>
      )}
      {gate.testFiles.length > 0 && (
        <div className="gate-warning" data-testid="gate-test-files">
          <p className="error-text">
            This change modifies tests the repository already had. Approving the gate approves these test changes (a run
            with --yes never does):
          </p>
          <ul>
            {gate.testFiles.map((file) => (
              <li key={file}>
                <code>{file}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {gate.unrelated.length > 0 && (
        <div className="gate-warning" data-testid="gate-unrelated">
          <p className="error-text">Changes classed as unrelated to the task:</p>
          <ul>
            {gate.unrelated.map((hunk) => (
              <li key={hunk}>{hunk}</li>
            ))}
          </ul>
        </div>
      )}
      {verdict ? (
        <div className="verdict">
          <div className="score-row">
            <span className={`score ${passes ? 'score-pass' : 'score-fail'}`} data-testid="gate-score">
              {verdict.score}
            </span>
            <span className="muted">/ 100 · gate threshold {verdict.threshold}</span>
            <meter
              min={0}
              max={100}
              low={verdict.threshold}
              optimum={100}
              value={verdict.score}
              aria-label={`score ${verdict.score} of 100, threshold ${verdict.threshold}`}
            />
            <span className={passes ? 'ok-text' : 'error-text'}>Supervisor: {passes ? 'approve' : 'reject'}</span>
            {verdict.escalation && verdict.escalation !== 'NONE' && (
              <span className="chip chip-warn" title="seed 002 escalation level">
                escalation {verdict.escalation}
                {verdict.consecutiveIssues ? ` (${verdict.consecutiveIssues} in a row)` : ''}
              </span>
            )}
          </div>
          {verdict.issues.length > 0 && (
            <ul className="issues" aria-label="Issues">
              {verdict.issues.map((issue) => (
                <li key={issue}>{issue}</li>
              ))}
            </ul>
          )}
          {!canDecide && verdict.feedback && <p className="feedback">{verdict.feedback}</p>}
        </div>
      ) : (
        <p className="muted small">
          {gate.mode === 'human' ? 'Human gate: no Supervisor review; your decision is the review.' : 'No verdict yet.'}
        </p>
      )}
      {canDecide && <GateSubject repo={repo} runId={runId} gate={gate} />}
      {gate.comment && <p className="user-comment">Your comment: “{gate.comment}”</p>}
      {canDecide && (
        <div className="gate-actions">
          {verdict && (
            <div className="field">
              <label htmlFor={`feedback-${gate.gateId}`}>
                Supervisor feedback (edit to change what the agent is told)
              </label>
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
          <div className="form-actions">
            <button
              type="button"
              className="primary"
              onClick={() => void decide(true)}
              disabled={sending}
              aria-keyshortcuts="A"
              title="Approve (A)"
            >
              Approve <kbd>A</kbd>
            </button>
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
            <button
              type="button"
              className="danger"
              onClick={() => void decide(false)}
              disabled={sending}
              aria-keyshortcuts="R"
              title="Reject with the comment (R, then Ctrl/⌘+Enter)"
            >
              Reject with comment <kbd>R</kbd>
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
