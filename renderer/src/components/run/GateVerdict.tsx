import type { GateView } from '../../../../shared/runView/types';

type Verdict = NonNullable<GateView['verdict']>;

/** The Supervisor's review of a gate: score against threshold, issues, and (when read-only) its feedback. */
export function GateVerdict({ gate, canDecide }: { gate: GateView; canDecide: boolean }) {
  const verdict = gate.verdict;
  if (!verdict)
    return (
      <p className="muted small">
        {gate.mode === 'human' ? 'Human gate: no Supervisor review; your decision is the review.' : 'No verdict yet.'}
      </p>
    );
  return (
    <div className="verdict">
      <VerdictScore verdict={verdict} />
      {verdict.issues.length > 0 && (
        <ul className="issues" aria-label="Issues">
          {verdict.issues.map((issue) => (
            <li key={issue}>{issue}</li>
          ))}
        </ul>
      )}
      {!canDecide && verdict.feedback && <p className="feedback">{verdict.feedback}</p>}
    </div>
  );
}

function VerdictScore({ verdict }: { verdict: Verdict }) {
  const passes = verdict.score >= verdict.threshold && verdict.approved;
  return (
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
  );
}
