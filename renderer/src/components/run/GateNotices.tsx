import type { GateView } from '../../../../shared/runView/types';

/** What the person must know before deciding: an unreviewed gate, changed existing tests, unrelated changes. */
export function GateNotices({ gate }: { gate: GateView }) {
  return (
    <>
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
    </>
  );
}
