import type { RepoStatus } from '../../../../shared/schemas/repo';
import { useRepoStore } from '../../stores/repoStore';

export function RepoSummary({ status }: { status: RepoStatus }) {
  const refresh = useRepoStore((state) => state.refresh);
  const branchLabel = status.branch ?? (status.head ? `detached at ${status.head.slice(0, 7)}` : 'no commits yet');
  return (
    <section className="panel" aria-labelledby="repo-heading" data-testid="repo-summary">
      <div className="panel-title-row">
        <h2 id="repo-heading" data-testid="repo-name">
          {status.name}
        </h2>
        <button type="button" className="small-button" onClick={() => void refresh()}>
          Refresh
        </button>
      </div>
      <p className="muted repo-path mono">{status.path}</p>
      <dl className="facts">
        <dt>Branch</dt>
        <dd data-testid="repo-branch">{branchLabel}</dd>
        <dt>HEAD</dt>
        <dd className="mono">{status.head ? status.head.slice(0, 12) : '—'}</dd>
        <dt>Working tree</dt>
        <dd data-testid="repo-state" className={status.dirty ? 'state-dirty' : 'state-clean'}>
          {status.dirty ? `dirty: ${status.changedCount} changed file${status.changedCount === 1 ? '' : 's'}` : 'clean'}
        </dd>
        <dt>Test command</dt>
        <dd data-testid="repo-test-command">
          {status.testCommand ? (
            <code>{status.testCommand.join(' ')}</code>
          ) : (
            <span className="muted">none detected</span>
          )}
          {status.testCommandReason && <span className="muted small"> — {status.testCommandReason}</span>}
        </dd>
      </dl>
      {status.dirty && (
        <ul className="changed-files mono" aria-label="changed files">
          {status.changedFiles.map((file) => (
            <li key={file}>{file}</li>
          ))}
          {status.changedCount > status.changedFiles.length && (
            <li className="muted">…and {status.changedCount - status.changedFiles.length} more</li>
          )}
        </ul>
      )}
    </section>
  );
}
