import type { EditFormatName, PlannedEditSet, PlannedFileChange, WorkspaceReader } from './types';
import { droppedLinesMessage, droppedRuns } from './droppedLines';
import { duplicateFileMessage, findDuplicate } from './duplicateFile';
import { elidedCodeMessage, findElidedLine } from './elision';
import type { PathPolicy } from './guardrails';
import { rejectEdit } from '../basics/rejection';

export function sortChanges(changes: PlannedFileChange[]): PlannedFileChange[] {
  return [...changes].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * What every format's plan ends with: the changes as resolved are judged for the mistakes a model
 * makes whatever the format (a placeholder for code, a whole-file answer that drops code, a new file
 * that is an existing one elsewhere), then sorted. An edit set that changes nothing has no changes.
 */
export async function checkedEditSet(
  format: EditFormatName,
  changes: PlannedFileChange[],
  reader: WorkspaceReader,
  rules: PathPolicy,
  unchanged: string[] = [],
): Promise<PlannedEditSet> {
  for (const change of changes) {
    if (change.after === null) continue;
    const elided = findElidedLine(change.before, change.after);
    if (elided) throw rejectEdit('elided-code', change.path, elidedCodeMessage(elided), { line: elided.line });
  }
  // A diff or a search block deletes only the lines it names; only a whole file can drop lines by leaving them out.
  if (format === 'whole-file' && !rules.policy.allowLargeDeletions) {
    for (const change of changes) {
      if (change.before === null || change.after === null) continue;
      const runs = droppedRuns(change.before, change.after);
      if (runs.length > 0) throw rejectEdit('drops-code', change.path, droppedLinesMessage(runs), { runs });
    }
  }
  const created = changes.filter((change) => change.before === null && change.after !== null);
  if (created.length > 0 && reader.listFiles) {
    const deleted = new Set(changes.filter((change) => change.after === null).map((change) => change.path));
    const files = (await reader.listFiles()).filter((file) => !deleted.has(file));
    const check = {
      files,
      read: (file: string) => reader.read(file),
      isTest: (file: string) => rules.isTestPath(file),
    };
    for (const change of created) {
      const duplicate = await findDuplicate(change.path, change.after as string, check);
      if (duplicate)
        throw rejectEdit('duplicate-file', change.path, duplicateFileMessage(change.path, duplicate), {
          suggestions: duplicate.paths,
        });
    }
  }
  return unchanged.length > 0 && changes.length > 0
    ? { format, changes: sortChanges(changes), unchanged }
    : { format, changes: sortChanges(changes) };
}
