import { useEffect, useState } from 'react';
import type { z } from 'zod';
import type { RunReportSchema } from '../../../../shared/contract/runRequests';
import { client, errorMessage, unwrap } from '../../api/client';
import { useRunViewStore } from '../../stores/runViewStore';

type Report = z.infer<typeof RunReportSchema>;

/** report.md, pr-description.md and stuck-report.md as written at the end of the run. */
export function ReportTab({ repo, runId }: { repo: string; runId: string }) {
  const lastSeq = useRunViewStore((state) => state.view.lastSeq);
  const finished = useRunViewStore((state) => state.view.phase === 'finished');
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    client()
      .request('run/report', { repo, runId })
      .then((result) => current && setReport(unwrap(result)))
      .catch((failure: unknown) => current && setError(errorMessage(failure)));
    return () => {
      current = false;
    };
    // A finished run writes its report last: read again when the log moves on.
  }, [repo, runId, finished, lastSeq]);

  if (error) return <p className="error-text pad">{error}</p>;
  if (!report) return <p className="muted pad">Reading the report…</p>;
  const parts = [
    { title: 'Report', file: 'report.md', text: report.report },
    { title: 'Stuck report', file: 'stuck-report.md', text: report.stuckReport },
    { title: 'Pull request description', file: 'pr-description.md', text: report.prDescription },
  ].filter((part) => part.text);
  if (parts.length === 0) return <p className="muted pad">No report yet: it is written when the run ends.</p>;
  return (
    <div className="report-tab" data-testid="report">
      {parts.map((part) => (
        <section key={part.file} aria-label={part.title}>
          <h4>
            {part.title} <span className="muted small mono">{part.file}</span>
          </h4>
          <pre className="markdown">{part.text}</pre>
        </section>
      ))}
    </div>
  );
}
