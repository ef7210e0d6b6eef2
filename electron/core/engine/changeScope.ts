import { currentStep } from '../../../shared/engine/planOps';
import type { RunState } from '../../../shared/engine/runState';
import { classifyHunks, unrelatedFeedback } from '../context/hunkScope';
import { type HunkScope } from '../../../shared/schemas/scope';
import type { PlannedEditSet } from '../edits/types';

/** Repo files a test output names in its frames (`lib/a.js:12`, `tests/test_a.py::test_b`). */
function framedFiles(text: string): string[] {
  return [
    ...new Set(
      [...text.matchAll(/(?:^|[\s("'])((?:[\w.-]+\/)*[\w.-]+\.(?:[cm]?[jt]sx?|py|go|rs|rb|java))(?::\d+|::)/g)].map(
        (match) => match[1] ?? '',
      ),
    ),
  ].filter(Boolean);
}

/**
 * What the change may be judged against (docs/context.md, "Scope of a change"): the goal, the task,
 * the failing tests and the feedback the writer was given, and the files the plan, the tests or the
 * writer's context named. Unknown context files leave the file list as the plan and tests name it.
 */
export function scopeEvidence(state: RunState, contextFiles: readonly string[]) {
  const step = currentStep(state);
  const test = state.last_test;
  const failure = test?.first_failure
    ? `${test.first_failure.test_id}\n${test.first_failure.message}\n${test.first_failure.location ?? ''}`
    : '';
  const testText = test && !test.passed ? `${failure}\n${test.excerpt}` : '';
  // The plan's artifacts name their files whether or not the writer's context is known.
  const artifacts = (step?.artifacts ?? []).join('\n');
  const texts = [
    state.goal,
    step?.title ?? '',
    step?.rationale ?? '',
    step?.acceptance ?? '',
    artifacts,
    testText,
    state.feedback?.text ?? '',
  ].filter((text) => text.trim() !== '');
  const named = [...(step?.artifacts ?? []), ...framedFiles(testText), ...contextFiles];
  const critique = state.feedback?.kind === 'critique' ? state.feedback.text : '';
  const about = [state.goal, step?.title ?? '', step?.rationale ?? '', step?.acceptance ?? '', critique];
  // No context known (a restarted process) and nothing named: "not known", so no file alone is doubted.
  return { texts, files: contextFiles.length > 0 ? [...new Set(named)] : [], about };
}

/** A hunk as the gate, the report and the writer name it: `path lines A-B (original lines C-D): why`. */
export function describeHunk(hunk: HunkScope): string {
  return (unrelatedFeedback([hunk]) ?? '').split('\n').slice(1).join(' ').replace(/^- /, '');
}

export interface ChangeScope {
  /** How many hunks the change has. */
  hunks: number;
  unrelated: HunkScope[];
  /** The writer's refusal text, when any hunk is unrelated. */
  feedback: string | null;
  /** The hunks, when every one changes only comments or layout (nothing a test can see); else empty. */
  noCodeChange: HunkScope[];
}

export async function changeScope(
  state: RunState,
  planned: PlannedEditSet,
  contextFiles: readonly string[],
): Promise<ChangeScope> {
  // A change that only creates files is the whole of what the writer did: nothing in it stands beside a
  // fix it could be unrelated to (a copy of an existing file is refused as a duplicate before this).
  if (planned.changes.length === 0 || planned.changes.every((change) => change.before === null))
    return { hunks: 0, unrelated: [], feedback: null, noCodeChange: [] };
  const hunks = await classifyHunks(planned.changes, scopeEvidence(state, contextFiles));
  const noCodeChange = hunks.length > 0 && hunks.every((hunk) => !hunk.changesCode) ? hunks : [];
  return {
    hunks: hunks.length,
    unrelated: hunks.filter((hunk) => !hunk.onTarget),
    feedback: unrelatedFeedback(hunks),
    noCodeChange,
  };
}
