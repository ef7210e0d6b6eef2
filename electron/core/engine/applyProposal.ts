import type { ActionOutcome } from '../../../shared/engine/actions';
import { currentStep } from '../../../shared/engine/planOps';
import type { RunState } from '../../../shared/engine/runState';
import { isLatheError, LatheError } from '../../../shared/errors';
import { createWorkspaceReader } from '../workspace/index';
import type { EngineDeps } from './engineDeps';

/**
 * Guardrails, atomic write and the step's commit. The work tree is first reset to the last recorded
 * commit, so a step redone after a crash starts from exactly where the first try did, unless this
 * process knows it equals that commit (`workTreeClean`: it committed it, and nothing wrote since).
 */
export async function applyProposal(deps: EngineDeps, state: RunState, role: string, options: { workTreeClean?: boolean } = {}): Promise<ActionOutcome> {
  const workspace = state.workspace;
  const base = state.head;
  if (!workspace || !base) return { kind: 'fatal', code: 'NO_WORKSPACE', message: 'the run has no workspace to apply edits to' };
  const step = currentStep(state);
  const format = deps.getEditFormat(state.config.edit_format);
  const proposal = format.schema.safeParse(state.proposal);
  if (!proposal.success) {
    return { kind: 'apply_rejected', code: 'INVALID_PROPOSAL', message: `the proposal does not match the ${format.name} format`, rule: null, path: null };
  }
  const policy = deps.defaultEditPolicy({
    artifacts: state.config.artifacts_only ? (step?.artifacts ?? []) : null,
    testsReadOnly: state.config.tests_read_only,
    protectedPaths: workspace.protectedPaths,
  });
  try {
    const headMoved = (await deps.git.headOf(workspace)) !== base;
    if (headMoved || (state.proposal_files.length > 0 && !options.workTreeClean)) await deps.git.resetTo(workspace, base);
    // The tested reader: inside the work tree only, binary and oversized files refused, unreadable never taken for missing.
    const reader = createWorkspaceReader(workspace.workDir);
    const planned = await format.plan(proposal.data, reader, policy).catch((error: unknown) => {
      // Planning reads only the model's proposal and the files: whatever goes wrong there is the proposal's fault.
      if (error instanceof LatheError) throw error;
      throw new LatheError('EDIT_REJECTED', `the proposal could not be planned: ${error instanceof Error ? error.message : String(error)}`, { rule: 'patch-does-not-apply', path: '(proposal)' });
    });
    // A run's own worktree is rebuilt from its commits; only the user's checkout gets flushed writes.
    const applied = await deps.applyEditSet(workspace.workDir, planned, policy, { durable: workspace.mode !== 'worktree' });
    const files = [...new Set([...applied.changed, ...applied.created, ...applied.deleted])].sort();
    const commit = await deps.git
      .commitStep(workspace, files, {
        runId: state.run_id,
        taskId: step?.id ?? 'T1',
        title: step?.title ?? state.goal.slice(0, 100),
        role,
        attempt: step?.attempts,
      })
      .catch(async (error: unknown) => {
        // Refused at commit time (a file git stores through a filter): what was written goes back.
        if (isLatheError(error, 'EDIT_REJECTED')) await deps.git.resetTo(workspace, base);
        throw error;
      });
    return { kind: 'applied', commit, head: commit ?? base, files };
  } catch (error) {
    if (isLatheError(error, 'EDIT_REJECTED')) {
      const data = error.data ?? {};
      return { kind: 'apply_rejected', code: error.code, message: error.message, rule: typeof data.rule === 'string' ? data.rule : null, path: typeof data.path === 'string' ? data.path : null };
    }
    const failure = LatheError.from(error);
    return { kind: 'fatal', code: failure.code, message: failure.message };
  }
}
