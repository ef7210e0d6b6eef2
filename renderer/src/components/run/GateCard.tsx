import { useRef, useState } from 'react';
import type { GateView } from '../../../../shared/runView/types';
import { editsFor, useGateEditStore } from '../../stores/gateEditStore';
import { GateActions } from './GateActions';
import { GateNotices } from './GateNotices';
import { GateSubject } from './GateSubject';
import { GateVerdict } from './GateVerdict';
import { useGateDecision, useGateShortcuts } from './useGateDecision';

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
  const [comment, setComment] = useState('');
  const [feedback, setFeedback] = useState(gate.verdict?.feedback ?? '');
  const commentBox = useRef<HTMLTextAreaElement>(null);
  const canDecide = actionable && gate.status === 'pending';
  const editGateId = useGateEditStore((state) => state.gateId);
  const editFiles = useGateEditStore((state) => state.files);
  const fileEdits =
    canDecide && editGateId === gate.gateId ? editsFor({ gateId: editGateId, files: editFiles }, gate.gateId) : [];
  const { decide, sending } = useGateDecision({ repo, runId, gate, comment, feedback, fileEdits });
  useGateShortcuts(canDecide, decide, commentBox);

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
      <GateNotices gate={gate} />
      <GateVerdict gate={gate} canDecide={canDecide} />
      {canDecide && <GateSubject repo={repo} runId={runId} gate={gate} />}
      {gate.comment && <p className="user-comment">Your comment: “{gate.comment}”</p>}
      {canDecide && (
        <GateActions
          gate={gate}
          feedback={feedback}
          setFeedback={setFeedback}
          comment={comment}
          setComment={setComment}
          commentBox={commentBox}
          decide={decide}
          sending={sending}
          fileEdits={fileEdits}
        />
      )}
    </section>
  );
}
