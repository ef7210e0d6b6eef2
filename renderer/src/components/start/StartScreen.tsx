import { useRepoStore } from '../../stores/repoStore';
import { RepoOpener } from './RepoOpener';
import { RepoRuns } from './RepoRuns';
import { RepoSummary } from './RepoSummary';
import { RunForm } from './RunForm';

export function StartScreen() {
  const repo = useRepoStore((state) => state.status);
  return (
    <div className="start-screen" data-testid="start-screen">
      <div className="start-column">
        <RepoOpener />
        {repo && <RepoSummary status={repo} />}
        {repo && <RepoRuns repo={repo.path} />}
      </div>
      <div className="start-column start-column-wide">
        {repo ? (
          <RunForm repo={repo} />
        ) : (
          <section className="panel" aria-labelledby="new-run-heading">
            <h2 id="new-run-heading">New run</h2>
            <p className="muted">Open a git repository to type a goal for it.</p>
          </section>
        )}
      </div>
    </div>
  );
}
