import fs from 'node:fs';
import path from 'node:path';
import { currentStep } from '../../../shared/engine/planOps';
import type { RunState } from '../../../shared/engine/runState';
import type { UserEditRecord, UserFileEdit } from '../../../shared/engine/userEdit';
import { LatheError } from '../../../shared/errors';
import { isTestFile } from '../edits/policy';
import { normalizeEditPath } from '../basics/editPath';
import type { EngineDeps } from './engineDeps';

/** A checked edit: its path normalized, and whether the file exists at the run's head. */
export interface CheckedUserEdit {
  path: string;
  content: string;
  created: boolean;
}

const refuse = (message: string, data: Record<string, unknown> = {}) =>
  new LatheError('USER_EDIT_REFUSED', message, data);

/**
 * Checks a person's edits against the gate they approve, before anything is written: each path stays in
 * the repository (the same checks as an agent's edit), and names a file of the gate's change, or a new
 * file the person named as new. Throws USER_EDIT_REFUSED, naming the path, and changes nothing.
 */
export async function checkUserEdits(
  deps: EngineDeps,
  state: RunState,
  edits: readonly UserFileEdit[],
): Promise<CheckedUserEdit[]> {
  const gate = state.gate;
  const workspace = state.workspace;
  if (!gate || (gate.kind !== 'code' && gate.kind !== 'step'))
    throw refuse('only a code or step gate can be approved with edits');
  if (!workspace || !state.head) throw refuse('the run has no change to edit yet');
  const from = state.step_base?.commit ?? workspace.baseCommit;
  const change = new Set(
    from === state.head ? [] : (await deps.git.diffRun(workspace, from, state.head)).map((file) => file.path),
  );
  const seen = new Set<string>();
  const checked: CheckedUserEdit[] = [];
  for (const edit of edits) {
    let clean: string;
    try {
      clean = normalizeEditPath(edit.path);
    } catch (error) {
      throw refuse(`cannot edit ${edit.path.slice(0, 300)}: ${(error as Error).message}`, {
        path: edit.path.slice(0, 300),
      });
    }
    if (seen.has(clean)) throw refuse(`${clean} is edited twice in one decision`, { path: clean });
    seen.add(clean);
    if (workspace.protectedPaths.includes(clean))
      throw refuse(`${clean} had your uncommitted changes when the run started; Lathe never commits it`, {
        path: clean,
      });
    const exists = fs.existsSync(path.join(workspace.workDir, ...clean.split('/')));
    if (edit.new === true) {
      // A new file only: naming an existing file "new" would slip a file outside the change past the check.
      if (exists)
        throw refuse(`${clean} already exists; only files in this gate's change can be edited`, { path: clean });
    } else if (!change.has(clean)) {
      throw refuse(`${clean} is not in this gate's change; edit only its files, or name a new file as new`, {
        path: clean,
      });
    }
    checked.push({ path: clean, content: edit.content, created: !exists });
  }
  return checked;
}

/**
 * Writes the checked edits into the run's work tree and commits them as the person's own (`Lathe-Role:
 * user`). Anything that fails puts the work tree back at the head, so a refused edit leaves no trace.
 * Null when the content equals the head's: then there is nothing of the person's to record.
 */
export async function commitUserEdits(
  deps: EngineDeps,
  state: RunState,
  edits: readonly CheckedUserEdit[],
): Promise<UserEditRecord | null> {
  const workspace = state.workspace;
  const head = state.head;
  if (!workspace || !head) throw refuse('the run has no change to edit yet');
  try {
    for (const edit of edits) {
      const file = path.join(workspace.workDir, ...edit.path.split('/'));
      // Never through a link: the path checks hold for the name, a link would write elsewhere.
      if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink())
        throw refuse(`${edit.path} is a symbolic link; Lathe does not write through it`, { path: edit.path });
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, edit.content);
    }
    const step = currentStep(state);
    const commit = await deps.git.commitStep(
      workspace,
      edits.map((edit) => edit.path),
      {
        runId: state.run_id,
        taskId: step?.id ?? 'T1',
        title: `user edit at the ${state.gate?.kind ?? 'code'} gate`,
        role: 'user',
        body: `Edited by the user before approving gate ${state.gate?.gate_id ?? ''}.`,
      },
    );
    if (!commit) return null;
    const diff = await deps.git.diffRun(workspace, head, commit);
    const files = diff.map((file) => ({
      path: file.path,
      added: file.added,
      removed: file.removed,
      created: file.before === null,
    }));
    const testFiles = diff.filter((file) => file.before !== null && isTestFile(file.path)).map((file) => file.path);
    return { commit, head: commit, files, test_files: testFiles };
  } catch (error) {
    // A reset restores tracked files; the new ones it may not know are taken away by hand.
    for (const edit of edits.filter((candidate) => candidate.created))
      fs.rmSync(path.join(workspace.workDir, ...edit.path.split('/')), { force: true });
    // catch-ok: cleanup after the failure rethrown below, which is the one to report
    await deps.git.resetTo(workspace, head).catch(() => undefined);
    throw error;
  }
}
