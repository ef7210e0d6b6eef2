import type { ActionOutcome, EngineAction } from '../../../shared/engine/actions';
import type { RunState } from '../../../shared/engine/runState';
import { isLatheError, LatheError } from '../../../shared/errors';
import { diskFull, isDiskFull } from '../fsErrors';
import { checkShellCommand, detectionLabel } from '../workspace/index';
import { applyProposal } from './applyProposal';
import { callAgent } from './callAgent';
import type { RunSession } from './runSession';
import { runVerification } from './verification';
import { setUpWorkspace } from './workspaceSetup';
import { checkUserEdits, commitUserEdits } from './userEdits';

/** Executes one action's side effect; every failure becomes an outcome, never an exception. */
export async function executeAction(
  session: RunSession,
  action: EngineAction,
  state: RunState,
): Promise<ActionOutcome> {
  const outcome = await runEffect(session, action, state);
  trackWorkTree(session, action, outcome);
  return outcome;
}

/**
 * Whether the work tree still equals the head after this effect. Only a committed apply, or a
 * worktree this process has just checked out with no setup command run in it, makes it so; only a
 * verify whose commands' writes were all undone (decision 33), or an agent that reads, keeps it so; a
 * human gate (the user may edit files meanwhile), a Scout's commands or anything that failed forgets
 * it, and the next apply resets as before.
 */
function trackWorkTree(session: RunSession, action: EngineAction, outcome: ActionOutcome): void {
  // prepare() itself says whether it checked out a clean work tree.
  if (action.kind === 'prepare') return;
  if (action.kind === 'apply') session.markWorkTreeClean(outcome.kind === 'applied' ? outcome.head : null);
  else if (action.kind === 'verify') {
    const writes = outcome.kind === 'verified' ? outcome.test.work_dir_writes : undefined;
    if (writes === undefined || (writes !== null && writes.failed.length > 0)) session.markWorkTreeClean(null);
  } else if (!(action.kind === 'agent' && action.purpose !== 'scout') && action.kind !== 'internal')
    session.markWorkTreeClean(null);
}

/**
 * A rolled-back attempt moves the run's head back without touching files: the work tree follows it
 * before anyone reads it (an agent's context) or tests it, so nobody sees the undone change.
 */
async function followHead(session: RunSession, state: RunState): Promise<void> {
  const workspace = state.workspace;
  if (!workspace || !state.head || (await session.deps.git.headOf(workspace)) === state.head) return;
  await session.deps.git.resetTo(workspace, state.head);
  session.markWorkTreeClean(state.head);
}

async function runEffect(session: RunSession, action: EngineAction, state: RunState): Promise<ActionOutcome> {
  try {
    // At the end too: a run that ends right after a rollback leaves its branch where the state says.
    if (action.kind === 'agent' || action.kind === 'verify' || action.kind === 'finish')
      await followHead(session, state);
    switch (action.kind) {
      case 'prepare':
        return await prepare(session, state);
      case 'verify': {
        const test = await runVerification(session.deps, state, {
          artifactRoot: session.artifactRoot,
          timeoutMs:
            session.timeoutFor(state, state.config.limits.test_timeout_ms) ?? state.config.limits.test_timeout_ms,
          timeoutFor: (ownMs) => session.timeoutFor(state, ownMs) ?? ownMs,
          signal: session.signal,
          coverage: session.workflow.tester === 'fix_plan' && action.purpose === 'step',
          allowlist: session.workflow.allowlist_commands ? allowRules(state) : undefined,
          workTreeKnownClean: session.workTreeKnownClean(state.head),
          runDir: session.store.dir,
          purpose: action.purpose,
        });
        // Tests cut short by Ctrl-C say nothing about the code: the run stops at the commit, and a resume verifies it again.
        if (session.signal.aborted) return { kind: 'stopped', reason: session.stopReason() };
        return { kind: 'verified', purpose: action.purpose, test };
      }
      case 'agent':
        return await callAgent(session, action, state);
      case 'apply':
        return await applyProposal(session.deps, state, session.workflow.writer, {
          workTreeClean: session.workTreeKnownClean(state.head),
          contextFiles: session.writerContextFiles,
        });
      case 'await_user': {
        try {
          const decision = await session.waitForGate(action.gate, state);
          const edit =
            decision.approved && decision.edits?.length
              ? await commitUserEdits(session.deps, state, await checkUserEdits(session.deps, state, decision.edits))
              : null;
          return {
            kind: 'user_decision',
            gate_id: action.gate.gate_id,
            approved: decision.approved,
            comment: decision.comment,
            feedback: decision.feedback ?? null,
            ...(edit ? { edit } : {}),
          };
        } catch (error) {
          // Nobody can answer now: the session stops with the gate pending, and a resume asks again.
          // An edit refused here (the window checks it first) leaves the gate pending too: nothing was written.
          if (
            isLatheError(error, 'GATE_NEEDS_USER') ||
            isLatheError(error, 'NO_GATE_HANDLER') ||
            isLatheError(error, 'USER_EDIT_REFUSED')
          )
            return { kind: 'stopped', reason: 'aborted', detail: error.message };
          if (isLatheError(error, 'PAUSED') && !session.signal.aborted) return { kind: 'stopped', reason: 'paused' };
          throw error;
        }
      }
      case 'internal':
      case 'finish':
        return { kind: 'internal' };
      default:
        return action satisfies never;
    }
  } catch (error) {
    if (session.signal.aborted) return { kind: 'stopped', reason: session.stopReason() };
    // Not a failure of the run's work: the session stops, resumable, once the runner has recorded it.
    if (isDiskFull(error)) throw diskFull(error, session.repoRoot);
    const failure = LatheError.from(error);
    return { kind: 'fatal', code: failure.code, message: failure.message };
  }
}

const allowRules = (state: RunState) => state.config.shell_allowlist.map((rule) => rule.trim().split(/\s+/));

/**
 * Seed 001: the test command goes through the ShellTool's allowlist, checked before any branch is made.
 * A detected command is checked as the repository names it (`npm test` for its scripts.test, `pytest`
 * for pytest run through Python), the way a user would allow it; a runner Lathe found without a script
 * stands for the repository's tests in its language, so it is checked as seed 001's list names those:
 * `npm test` for a JavaScript runner, `pytest` for unittest and nose2 (decision 95).
 */
async function rejectedTestCommand(session: RunSession, state: RunState): Promise<ActionOutcome | null> {
  if (!session.workflow.allowlist_commands) return null;
  const detected = state.config.test_command ? null : await session.deps.detectTestCommand(session.repoRoot);
  const argv = state.config.test_command ?? detected?.argv;
  if (!argv) return null;
  const check = checkShellCommand(asNamed(argv, detected?.runner ?? null), allowRules(state));
  return check.allowed
    ? null
    : {
        kind: 'command_rejected',
        command: check.command,
        reason: `${check.reason}; add it to policies.allowlist in lathe.config.yaml to allow it`,
      };
}

const JS_RUNNERS = new Set(['node-test', 'vitest', 'jest', 'mocha', 'ava', 'jasmine', 'tape', 'uvu']);

function asNamed(argv: string[], runner: string | null): string[] {
  if (runner !== null && JS_RUNNERS.has(runner)) return ['npm', 'test'];
  if (runner === 'unittest' || runner === 'nose2') return ['pytest'];
  const pytest = argv.findIndex((arg, index) => arg === 'pytest' && argv[index - 1] === '-m');
  if ((runner === 'pytest' || /(^|\/)python[\d.]*$/.test(argv[0] ?? '')) && pytest > 0)
    return ['pytest', ...argv.slice(pytest + 1)];
  return argv;
}

async function prepare(session: RunSession, state: RunState): Promise<ActionOutcome> {
  session.markWorkTreeClean(null);
  const rejected = await rejectedTestCommand(session, state);
  if (rejected) return rejected;
  const { deps, repoRoot } = session;
  const settings = state.config.workspace;
  const options = {
    runId: state.run_id,
    branchPrefix: state.config.branch_prefix,
    allowDirty: state.config.allow_dirty,
    worktreeRoot: settings.worktree_root,
    startCommit: state.start_commit,
    ...(settings.dependency_folders ? { dependencyFolders: settings.dependency_folders } : {}),
  };
  const adopted = await deps.git.adoptRun(repoRoot, options);
  let workspace;
  try {
    workspace = adopted ?? (await deps.git.startRun(repoRoot, options));
  } catch (error) {
    if (!isDiskFull(error)) throw error;
    // A branch or worktree half made on a full disk is taken back: a resume prepares from nothing.
    await deps.git.discardStartedRun(repoRoot, options);
    throw error;
  }
  const setup = await setUpWorkspace(deps, state, workspace, {
    log: (event) => session.log(event),
    runDir: session.store.dir,
    signal: session.signal,
  });
  const setupFailure = setup.failure;
  if (setupFailure && session.signal.aborted) {
    // A setup cut short by Ctrl-C is no failure of the repository's: the half-set-up worktree goes, and a resume prepares again.
    // catch-ok: taking the worktree back is cleanup after the failure reported below, which is the one the user needs
    await deps.git.undoRun(workspace).catch(() => undefined);
    return { kind: 'stopped', reason: session.stopReason() };
  }
  if (setupFailure) {
    // The fresh worktree holds nothing of the run's yet (no step ran): take it back so no half-prepared branch or folder stays.
    // catch-ok: taking the worktree back is cleanup after the failure reported below, which is the one the user needs
    await deps.git.undoRun(workspace).catch(() => undefined);
    return { kind: 'fatal', code: setupFailure.code, message: setupFailure.message };
  }
  let detected;
  try {
    detected = state.config.test_command ? null : await deps.detectTestCommand(workspace.workDir);
  } catch (error) {
    if (!isLatheError(error, 'FILE_UNREADABLE')) throw error;
    // The checkout at the base has a manifest the preflight could not see (the user's copy differs): take the fresh worktree back, as for a failed setup.
    // catch-ok: taking the worktree back is cleanup after the failure reported below, which is the one the user needs
    await deps.git.undoRun(workspace).catch(() => undefined);
    return {
      kind: 'fatal',
      code: error.code,
      message: `cannot tell the test command of the run's checkout: ${error.message}`,
    };
  }
  // A worktree git has just checked out at the base, with no setup command run in it, is the base:
  // the first apply need not reset it. An adopted one (a crash) or the user's own checkout may not be.
  if (!adopted && workspace.mode === 'worktree' && !settings.setup_command)
    session.markWorkTreeClean(workspace.baseCommit);
  return {
    kind: 'prepared',
    workspace,
    head: workspace.baseCommit,
    test_command: state.config.test_command ?? detected?.argv ?? null,
    test_command_source: detected ? detectionLabel(detected) : null,
    setup_note: setup.note,
  };
}
