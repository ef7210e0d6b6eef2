import { quoteGitPath } from '../../../../shared/gitPath';
import { useEffect, useState } from 'react';
import { client, errorMessage, unwrap } from '../../api/client';
import { gateSubject } from '../../runView/gateSubject';
import type { CommitView, GateView, TestView } from '../../../../shared/runView/types';
import { changeSpan, spanCounts } from '../../../../shared/diff/changeSpan';
import { useRunViewStore } from '../../stores/runViewStore';
import { useUiStore } from '../../stores/uiStore';

/** What the gate asks you to approve: the plan for a plan gate; the changed files, the tests and the diff for a code or step gate. */
export function GateSubject({ repo, runId, gate }: { repo: string; runId: string; gate: GateView }) {
  const view = useRunViewStore((state) => state.view);
  const subject = gateSubject(view, gate);
  if (!subject) return null;
  if (subject.kind === 'plan') {
    return (
      <div className="gate-subject" data-testid="gate-subject">
        <h4>
          The plan under review <span className="muted small mono">{subject.plan.planId}</span>
          {subject.plan.depth > 0 && <span className="muted small"> · sub-plan, depth {subject.plan.depth}</span>}
        </h4>
        {subject.plan.analysis && <p className="small">{subject.plan.analysis}</p>}
        <ol className="gate-plan-steps">
          {subject.steps.map((step) => (
            <li key={step.key} data-step-id={step.id}>
              <strong>{step.id}</strong> {step.title}
              {step.complexity && <span className="muted small"> · {step.complexity}</span>}
              {step.dependsOn.length > 0 && <span className="muted small"> · after {step.dependsOn.join(', ')}</span>}
              {step.artifacts.length > 0 && <span className="muted small mono"> · {step.artifacts.join(', ')}</span>}
              {step.acceptance && <div className="muted small">Done when: {step.acceptance}</div>}
            </li>
          ))}
        </ol>
      </div>
    );
  }
  const heading =
    gate.kind === 'goal'
      ? 'What you approve: the run’s whole change'
      : `What you approve${subject.step ? `: ${subject.step.title}` : ''}`;
  return (
    <ChangeSubject
      repo={repo}
      runId={runId}
      heading={heading}
      commits={subject.commits}
      test={subject.test}
      range={subject.range}
    />
  );
}

interface ChangeSubjectProps {
  repo: string;
  runId: string;
  heading: string;
  commits: CommitView[];
  test: TestView | null;
  range: string | null;
}

function ChangeSubject({ repo, runId, heading, commits, test, range }: ChangeSubjectProps) {
  const navigate = useUiStore((state) => state.navigate);
  const { counted, error } = useSpanCounts(repo, runId, commits.map((commit) => commit.sha).join(','));
  const files = fileTotals(commits, counted);
  const openDiff = (target: string) => navigate({ tab: 'changes', range: target, file: null }, { replace: true });
  return (
    <div className="gate-subject" data-testid="gate-subject">
      <h4>{heading}</h4>
      {commits.length === 0 ? (
        <p className="muted small">No commit yet.</p>
      ) : (
        <ul className="gate-files" aria-label="Changed files">
          {files.map((file) => (
            <SubjectFile key={file.path} file={file} counting={!error} />
          ))}
        </ul>
      )}
      {error && <p className="error-text small">Line counts unavailable: {error}</p>}
      <SubjectTest test={test} />
      <DiffLinks commits={commits} range={range} openDiff={openDiff} />
    </div>
  );
}

/** The +/− of the reviewed span, read once per set of commits (`shas`, comma-joined); an error says why not. */
function useSpanCounts(repo: string, runId: string, shas: string) {
  const [counted, setCounted] = useState<FileCount[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!shas) return;
    let current = true;
    countSpan(repo, runId, shas.split(','))
      .then((counts) => current && setCounted(counts))
      .catch((failure: unknown) => current && setError(errorMessage(failure)));
    return () => {
      current = false;
    };
  }, [repo, runId, shas]);
  return { counted, error };
}

/** A changed file with its +/−; `counting`: the counts are still being read (an ellipsis until then). */
function SubjectFile({ file, counting }: { file: FileTotal; counting: boolean }) {
  return (
    <li className="mono small">
      {quoteGitPath(file.path)}{' '}
      {file.added !== null && file.removed !== null ? (
        <span className="line-counts">
          <span className="added" aria-label={`${file.added} lines added`}>
            +{file.added}
          </span>{' '}
          <span className="removed" aria-label={`${file.removed} lines removed`}>
            −{file.removed}
          </span>
        </span>
      ) : (
        counting && <span className="muted">…</span>
      )}
    </li>
  );
}

function SubjectTest({ test }: { test: TestView | null }) {
  return (
    <p className="small" data-testid="gate-test">
      {test ? (
        <>
          Tests <span className={test.status === 'PASS' ? 'ok-text' : 'error-text'}>{test.status}</span>
          {test.counts ? ` · ${test.counts.passed} passed, ${test.counts.failed} failed` : ''}
          {test.firstFailure ? ` · first failure: ${test.firstFailure.testId}` : ''}
        </>
      ) : (
        <span className="muted">No test run yet.</span>
      )}
    </p>
  );
}

interface DiffLinksProps {
  commits: CommitView[];
  range: string | null;
  openDiff: (target: string) => void;
}

/** The way to the Changes tab: the whole change, the one commit, or one link per edit set. */
function DiffLinks({ commits, range, openDiff }: DiffLinksProps) {
  if (range === 'all')
    return (
      <button type="button" className="link-button" onClick={() => openDiff('all')}>
        Open the diff of every change ({commits.length} commit{commits.length === 1 ? '' : 's'})
      </button>
    );
  if (commits.length === 1 && range)
    return (
      <button type="button" className="link-button" onClick={() => openDiff(range)}>
        Open the diff ({range.slice(0, 7)})
      </button>
    );
  if (commits.length <= 1) return null;
  // One link per edit set: each opens exactly the changes of that commit.
  return (
    <p className="small">
      Open the diff of edit set{' '}
      {commits.map((commit, index) => (
        <span key={commit.sha}>
          {index > 0 && ' · '}
          <button
            type="button"
            className="link-button"
            onClick={() => openDiff(commit.sha)}
            aria-label={`Open the diff of commit ${index + 1} of ${commits.length} (${commit.sha.slice(0, 7)})`}
          >
            {index + 1} ({commit.sha.slice(0, 7)})
          </button>
        </span>
      ))}
    </p>
  );
}

interface FileTotal {
  path: string;
  added: number | null;
  removed: number | null;
}

type FileCount = ReturnType<typeof spanCounts>[number];

/** The net counts of the reviewed commits' span, from the diff the Changes tab shows (not a sum over edit sets). */
async function countSpan(repo: string, runId: string, reviewed: string[]): Promise<FileCount[]> {
  const span = changeSpan(unwrap(await client().request('run/commits', { repo, runId })).commits, reviewed);
  if (!span) return [];
  return spanCounts(unwrap(await client().request('run/diff', { repo, runId, ...span })).files);
}

/** Files of the commits under review; their +/− once the span's diff is read (a file changed and changed back has none). */
function fileTotals(commits: CommitView[], counted: FileCount[] | null): FileTotal[] {
  if (counted) return counted;
  const paths = [...new Set(commits.flatMap((commit) => commit.files))].sort((a, b) => a.localeCompare(b));
  return paths.map((path) => ({ path, added: null, removed: null }));
}
