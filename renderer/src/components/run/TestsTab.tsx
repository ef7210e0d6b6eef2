import { useState } from 'react';
import { client, errorMessage, unwrap } from '../../api/client';
import { firstFailureLine } from '../../lib/ansi';
import { formatTime } from '../../lib/format';
import { formatDuration } from '../../../../shared/format';
import type { TestView } from '../../../../shared/runView/types';
import { useRunViewStore } from '../../stores/runViewStore';
import { testReportOf } from '../../runView/testReport';
import { AnsiLog } from './AnsiLog';

/** Verifier results: counts, the first failure, the report as the agents saw it, the full log on request. */
export function TestsTab({ repo, runId }: { repo: string; runId: string }) {
  const tests = useRunViewStore((state) => state.view.tests);
  const [chosen, setChosen] = useState<number | null>(null);
  if (tests.length === 0) return <p className="muted pad">No test runs yet.</p>;
  const selected = tests.find((test) => test.seq === chosen) ?? tests[tests.length - 1];
  return (
    <div className="tests-tab" data-testid="tests-tab">
      <ul className="test-runs" aria-label="Test runs">
        {[...tests].reverse().map((test) => (
          <li key={test.seq}>
            <button
              type="button"
              className={`test-run${test === selected ? ' selected' : ''}`}
              aria-current={test === selected ? 'true' : undefined}
              onClick={() => setChosen(test.seq)}
            >
              <span className={`test-status test-${test.status}`}>{test.status}</span>
              <span>
                {test.stepId ?? test.purpose} · {test.counts ? `${test.counts.passed}/${test.counts.total}` : '—'}
              </span>
              <span className="muted small">{formatTime(test.ts)}</span>
            </button>
          </li>
        ))}
      </ul>
      {selected && <TestDetail key={selected.seq} repo={repo} runId={runId} test={selected} />}
    </div>
  );
}

function TestDetail({ repo, runId, test }: { repo: string; runId: string; test: TestView }) {
  const [full, setFull] = useState<{ text: string; truncated: boolean; path: string } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const report = useRunViewStore((state) => testReportOf(state.events, test.seq));
  const text = full?.text ?? report;
  const highlight = firstFailureLine(text.split('\n'), test.firstFailure?.testId ?? null);

  const showFull = async () => {
    if (!test.verifyRunId) return;
    setLoading(true);
    setError(null);
    try {
      setFull(unwrap(await client().request('verifier/log', { repo, runId, verifyRunId: test.verifyRunId })));
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setLoading(false);
    }
  };

  return (
    <section className="test-detail" aria-label="Test result" data-testid="test-detail">
      <div className="test-summary">
        <span className={`test-status test-${test.status}`} data-testid="test-status">
          {test.status}
        </span>
        {test.counts ? (
          <span data-testid="test-counts">
            <strong className="ok-text">{test.counts.passed} passed</strong> ·{' '}
            <strong className={test.counts.failed > 0 ? 'error-text' : undefined}>{test.counts.failed} failed</strong> ·{' '}
            {test.counts.skipped} skipped · {test.counts.total} total
          </span>
        ) : (
          <span className="muted">
            no counts: Lathe could not read test results from the output (exit code {test.exitCode ?? '?'}
            {test.status === 'PASS' ? '; the PASS rests on it alone' : ''})
          </span>
        )}
        {test.durationMs !== null && <span className="muted">{formatDuration(test.durationMs)}</span>}
        {test.coveragePercent !== null && <span className="muted">coverage {test.coveragePercent.toFixed(1)}%</span>}
      </div>
      {test.reason && <p className="warning-text">{test.reason}</p>}
      {test.firstFailure && (
        <div className="first-failure" role="note" data-testid="first-failure">
          <strong>First failure: {test.firstFailure.testId}</strong>
          <pre>{test.firstFailure.message}</pre>
        </div>
      )}
      {test.tools.length > 0 && (
        <ul className="tools small">
          {test.tools.map((tool) => (
            <li key={tool.name}>
              <span className={`test-status test-${tool.status}`}>{tool.status}</span> {tool.name}
              {tool.required ? '' : ' (optional)'}
            </li>
          ))}
        </ul>
      )}
      <div className="panel-title-row">
        <span className="muted small">
          {full
            ? `Full log${full.truncated ? ' (last 2 MiB)' : ''}: ${full.path}`
            : 'Output as seed 000 truncates it (the models of other workflows see a failure excerpt)'}
        </span>
        {!full && test.verifyRunId && (
          <button type="button" className="small-button" onClick={() => void showFull()} disabled={loading}>
            {loading ? 'Loading…' : 'Show full log'}
          </button>
        )}
        {full && (
          <button type="button" className="small-button" onClick={() => setFull(null)}>
            Show the report
          </button>
        )}
      </div>
      {error && <p className="error-text">{error}</p>}
      <AnsiLog text={text} highlight={highlight} label={full ? 'Full test log' : 'Test report'} />
    </section>
  );
}
