import type { ActionOutcome } from '../../../shared/engine/actions';
import { currentStep } from '../../../shared/engine/planOps';
import type { RunState } from '../../../shared/engine/runState';
import { isLatheError, LatheError } from '../../../shared/errors';
import { createWorkspaceReader } from '../workspace/index';
import type { EngineDeps } from './engineDeps';
import { isTestFile } from '../edits/policy';
import { failingAtHead } from '../../../shared/engine/attemptGuard';
import { onlyAddsLines } from '../../../shared/engine/testInventory';
import { writerFormat } from '../../../shared/engine/editFormatFallback';
import { changeScope, describeHunk, type ChangeScope } from './changeScope';
import type { EditFormat, EditPolicy, PlannedEditSet } from '../edits/types';

type Workspace = NonNullable<RunState['workspace']>;

function editPolicyFor(deps: EngineDeps, state: RunState, workspace: Workspace): EditPolicy {
  const step = currentStep(state);
  return deps.defaultEditPolicy({
    artifacts: state.config.artifacts_only ? (step?.artifacts ?? []) : null,
    testsReadOnly: state.config.tests_read_only,
    protectedPaths: workspace.protectedPaths,
    allowLargeDeletions: asksToRemoveCode(
      [state.goal, step?.title ?? '', step?.rationale ?? '', step?.acceptance ?? ''].join('\n'),
    ),
  });
}

/** The proposal resolved against the files, through the tested reader. */
async function planProposal(
  format: EditFormat,
  proposal: unknown,
  workDir: string,
  policy: EditPolicy,
): Promise<PlannedEditSet> {
  // The tested reader: inside the work tree only, binary and oversized files refused, unreadable never taken for missing.
  const reader = createWorkspaceReader(workDir);
  return format.plan(proposal, reader, policy).catch((error: unknown) => {
    // Planning reads only the model's proposal and the files: whatever goes wrong there is the proposal's fault.
    if (error instanceof LatheError) throw error;
    throw new LatheError(
      'EDIT_REJECTED',
      `the proposal could not be planned: ${error instanceof Error ? error.message : String(error)}`,
      { rule: 'patch-does-not-apply', path: '(proposal)' },
    );
  });
}

/** The refusal, if any, once the change's scope is known: before writing, unrelated hunks, nothing a test sees. */
function refusedInScope(state: RunState, refused: ActionOutcome | null, scope: ChangeScope): ActionOutcome | null {
  // An answer refused for an edit that changed nothing is told of its unrelated hunks in the same
  // breath: under a gate they would only be named after another answer, and a writer that fixes
  // one fault per refusal spends its attempts there (decision 97).
  if (refused?.kind === 'apply_rejected' && refused.rule === 'no-change' && scope.feedback)
    return { ...refused, message: `${refused.message}\n${scope.feedback}` };
  if (refused) return refused;
  if (scope.feedback && !reviewedByGate(state))
    return {
      kind: 'apply_rejected',
      code: 'EDIT_REJECTED',
      rule: 'unrelated-change',
      path: scope.unrelated[0]?.path ?? null,
      message: scope.feedback,
    };
  // Comments and layout alone where the tests fail cannot fix them: the tests see no change.
  if (scope.noCodeChange.length > 0 && failingAtHead(state)) {
    const where = scope.noCodeChange.map((hunk) => `- ${hunk.path} ${oldLinesText(hunk)}`).join('\n');
    const message = `your answer was not applied: it changes only comments or layout, which no test can see, so the tests would fail as before${failingNote(state)}:\n${where}\nPut those lines back as they were and change the code that fails.`;
    return refusal('no-change', scope.noCodeChange[0]?.path ?? null, message);
  }
  // Nothing but unrelated hunks where the tests fail cannot fix them, and a failed attempt reaches no gate.
  if (scope.feedback && scope.unrelated.length === scope.hunks && failingAtHead(state)) {
    const message = `${scope.feedback}\nWithout those lines your answer changed nothing, so the tests would fail as before${failingNote(state)}. Make the change that fixes the failure.`;
    return refusal('unrelated-change', scope.unrelated[0]?.path ?? null, message);
  }
  return null;
}

async function commitWritten(
  deps: EngineDeps,
  state: RunState,
  workspace: Workspace,
  base: string,
  files: string[],
  role: string,
): Promise<string | null> {
  const step = currentStep(state);
  return deps.git
    .commitStep(workspace, files, {
      runId: state.run_id,
      taskId: step?.id ?? 'T1',
      // The subject is cut to 72 characters; the whole goal is in the body.
      title: step?.title ?? state.goal,
      body: `Goal:\n${state.goal.trim()}`,
      role,
      attempt: step?.attempts,
    })
    .catch(async (error: unknown) => {
      // Refused at commit time (a file git stores through a filter): what was written goes back.
      if (isLatheError(error, 'EDIT_REJECTED')) await deps.git.resetTo(workspace, base);
      throw error;
    });
}

/** A refused edit is the writer's to fix; anything else ends the run. */
function failedApply(error: unknown): ActionOutcome {
  if (isLatheError(error, 'EDIT_REJECTED')) {
    const data = error.data ?? {};
    return {
      kind: 'apply_rejected',
      code: error.code,
      message: error.message,
      rule: typeof data.rule === 'string' ? data.rule : null,
      path: typeof data.path === 'string' ? data.path : null,
    };
  }
  const failure = LatheError.from(error);
  return { kind: 'fatal', code: failure.code, message: failure.message };
}

/**
 * Guardrails, atomic write and the step's commit. The work tree is first reset to the last recorded
 * commit, so a step redone after a crash starts from exactly where the first try did, unless this
 * process knows it equals that commit (`workTreeClean`: it committed it, and nothing wrote since).
 */
export async function applyProposal(
  deps: EngineDeps,
  state: RunState,
  role: string,
  options: { workTreeClean?: boolean; contextFiles?: readonly string[] } = {},
): Promise<ActionOutcome> {
  const workspace = state.workspace;
  const base = state.head;
  if (!workspace || !base)
    return { kind: 'fatal', code: 'NO_WORKSPACE', message: 'the run has no workspace to apply edits to' };
  const format = deps.getEditFormat(writerFormat(state));
  const proposal = format.schema.safeParse(state.proposal);
  if (!proposal.success) {
    return {
      kind: 'apply_rejected',
      code: 'INVALID_PROPOSAL',
      message: `the proposal does not match the ${format.name} format`,
      rule: null,
      path: null,
    };
  }
  const policy = editPolicyFor(deps, state, workspace);
  try {
    const headMoved = (await deps.git.headOf(workspace)) !== base;
    if (headMoved || (state.proposal_files.length > 0 && !options.workTreeClean))
      await deps.git.resetTo(workspace, base);
    const planned = await planProposal(format, proposal.data, workspace.workDir, policy);
    const refused = refusedBeforeWriting(state, planned);
    // Unrelated hunks are refused where no gate reviews the change, and shown apart where one does.
    const scope = await changeScope(state, planned, options.contextFiles ?? []);
    const rejected = refusedInScope(state, refused, scope);
    if (rejected) return rejected;
    // A run's own worktree is rebuilt from its commits; only the user's checkout gets flushed writes.
    const applied = await deps.applyEditSet(workspace.workDir, planned, policy, {
      durable: workspace.mode !== 'worktree',
    });
    const files = [...new Set([...applied.changed, ...applied.created, ...applied.deleted])].sort();
    const commit = await commitWritten(deps, state, workspace, base, files, role);
    return { kind: 'applied', commit, head: commit ?? base, files, unrelated: scope.unrelated.map(describeHunk) };
  } catch (error) {
    return failedApply(error);
  }
}

/**
 * What is refused once the proposal is resolved against the files, before anything is written: an
 * answer that changes nothing where the tests are known to fail (it would only fail them again), an
 * answer with an edit that changes nothing (its writer meant a change it did not make), and
 * a change to the repository's existing tests where no gate reviews it (`tests: protect`).
 */
function refusedBeforeWriting(state: RunState, planned: PlannedEditSet): ActionOutcome | null {
  if (planned.changes.length === 0) {
    if (!failingAtHead(state)) return null;
    return refusal(
      'no-change',
      null,
      `your edit changed nothing: every file is exactly as it was, so the tests fail as before${failingNote(state)}. Make a change to the code that fixes the failure.`,
    );
  }
  const unchanged = planned.unchanged ?? [];
  if (unchanged.length > 0) {
    const which = unchanged.length === 1 ? 'one of its edits' : `${unchanged.length} of its edits`;
    return {
      kind: 'apply_rejected',
      code: 'EDIT_REJECTED',
      rule: 'no-change',
      path: null,
      message: `your answer was not applied: ${which} changed nothing:\n${unchanged.map((line) => `- ${line}`).join('\n')}\nWrite the change you meant in that place, or leave that edit out.`,
    };
  }
  if (state.config.tests_policy !== 'protect' || reviewedByGate(state)) return null;
  const approved = new Set(state.approved_test_files);
  const test = planned.changes.find(
    (change) =>
      change.before !== null &&
      isTestFile(change.path) &&
      !approved.has(change.path) &&
      !(change.after !== null && onlyAddsLines(change.before, change.after)),
  );
  if (!test) return null;
  const what = test.after === null ? 'deletes' : 'changes';
  return {
    kind: 'apply_rejected',
    code: 'TESTS_WEAKENED',
    rule: 'tests-protected',
    path: test.path,
    message: `your edit ${what} ${test.path}, an existing test file, and the repository's tests are protected: leave every test as it is and change the code under test so the tests pass (a user can allow test changes with policies.tests: allow)`,
  };
}

function refusal(rule: string, path: string | null, message: string): ActionOutcome {
  return { kind: 'apply_rejected', code: 'EDIT_REJECTED', rule, path, message };
}

/** ` (first failure: <test id>)` when the last run named one. */
function failingNote(state: RunState): string {
  const first = state.last_test?.first_failure;
  return first ? ` (first failure: ${first.test_id})` : '';
}

function oldLinesText(hunk: { oldStart: number; oldLines: number }): string {
  if (hunk.oldLines === 0) return `after line ${hunk.oldStart}`;
  return hunk.oldLines === 1 ? `line ${hunk.oldStart}` : `lines ${hunk.oldStart}-${hunk.oldStart + hunk.oldLines - 1}`;
}

/** Words of a task that asks for code to go: then a whole-file answer may leave large parts of a file out. */
const REMOVES_CODE =
  /\b(remov\w*|delet\w*|drop\w*|strip\w*|get rid of|eliminat\w*|prun\w*|clean\w* up|deprecat\w*|mov(e|es|ed|ing)|extract\w*|refactor\w*|split\w*|merg\w*|simplif\w*|rewrit\w*|replac\w*|consolidat\w*|dedup\w*|inlin\w*)\b/i;

export function asksToRemoveCode(taskText: string): boolean {
  return REMOVES_CODE.test(taskText);
}

/** Whether a code or step gate reviews each change before its step is done. */
function reviewedByGate(state: RunState): boolean {
  return state.config.gates.code !== 'off' || state.config.gates.step !== 'off';
}
