import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { z } from 'zod';
import { LIMITS } from '../../../shared/schemas/agents/bounds';
import type { EditFormat, EditPolicy, PlannedEditSet, PlannedFileChange, WorkspaceReader } from './types';
import { describeClosestRegion } from './closestRegion';
import { alignHunkIndentation } from './hunkIndent';
import { repairDiffText } from './diffText';
import { PathPolicy } from './guardrails';
import { missingFileMessage } from './nearestPaths';
import { checkedEditSet } from './planChecks';
import { parseProposal } from './proposal';
import { rejectEdit } from '../basics/rejection';

/** Seed 001: one unified diff text, may span files; /dev/null on one side creates or deletes. */
export const UnifiedDiffProposalSchema = z.object({ diff: z.string().min(1).max(LIMITS.fileContent) });
export type UnifiedDiffProposal = z.infer<typeof UnifiedDiffProposalSchema>;

const DEV_NULL = '/dev/null';

export const unifiedDiffFormat: EditFormat<UnifiedDiffProposal> = {
  name: 'unified-diff',
  schema: UnifiedDiffProposalSchema,
  /** The dry run: every hunk of every file must apply to the current files before anything is planned. */
  async plan(proposal: UnifiedDiffProposal, reader: WorkspaceReader, policy: EditPolicy): Promise<PlannedEditSet> {
    const { diff } = parseProposal('unified-diff', UnifiedDiffProposalSchema, proposal);
    if (/^GIT binary patch$/m.test(diff) || /^Binary files .* differ$/m.test(diff)) {
      throw rejectEdit('binary-content', '(diff)', 'binary patches are not supported');
    }
    let patches: StructuredPatch[];
    try {
      patches = parsePatch(repairDiffText(diff)).filter(
        (patch) => patch.oldFileName || patch.newFileName || patch.hunks.length > 0,
      );
    } catch (error) {
      throw rejectEdit('patch-does-not-apply', '(diff)', `the diff cannot be parsed: ${(error as Error).message}`);
    }
    if (patches.length === 0) throw rejectEdit('patch-does-not-apply', '(diff)', 'the diff names no file');
    const rules = new PathPolicy(policy);
    const seen = new Set<string>();
    const claim = (filePath: string) => {
      const normalized = rules.check(filePath);
      if (seen.has(normalized)) throw rejectEdit('duplicate-path', normalized, 'the diff changes the same file twice');
      seen.add(normalized);
      return normalized;
    };
    const changes: PlannedFileChange[] = [];
    const unchanged: string[] = [];
    for (const patch of patches) {
      const oldName = stripPrefix(patch.oldFileName, patch.newFileName);
      const newName = stripPrefix(patch.newFileName, patch.oldFileName);
      if (oldName === null && newName === null)
        throw rejectEdit('patch-does-not-apply', '(diff)', 'a file section has no file names');
      const source = oldName === null ? null : claim(oldName);
      const target = newName === null ? null : newName === oldName ? source : claim(newName);
      const label = (target ?? source) as string;
      const before = source === null ? null : await reader.read(source);
      if (source !== null && before === null) {
        const missing = await missingFileMessage(source, reader, 'to create it, write its section from --- /dev/null');
        throw rejectEdit('patch-does-not-apply', source, missing.message, { suggestions: missing.suggestions });
      }
      if (source === null && target !== null && (await reader.read(target)) !== null) {
        throw rejectEdit('patch-does-not-apply', target, 'the diff creates a file that already exists');
      }
      // A file header with no hunks changes nothing (jsdiff writes one for an unchanged file): skip it.
      if (patch.hunks.length === 0 && source === target) continue;
      if (source === target) unchanged.push(...unchangedHunks(label, patch));
      const after = applyHunks(label, before ?? '', patch);
      if (target === null) {
        if (after !== '')
          throw rejectEdit('patch-does-not-apply', label, 'a deletion must remove every line of the file');
        changes.push({ path: source as string, before, after: null });
        continue;
      }
      rules.checkContent(target, after);
      if (source !== null && source !== target) changes.push({ path: source, before, after: null });
      const targetBefore = source === target ? before : null;
      if (after !== targetBefore) changes.push({ path: target, before: targetBefore, after });
    }
    return checkedEditSet('unified-diff', changes, reader, rules, unchanged);
  },
};

/** Hunks that change nothing: context lines only, or the same lines removed and added back. */
function unchangedHunks(label: string, patch: StructuredPatch): string[] {
  return patch.hunks.flatMap((hunk, index) => {
    const side = (mark: string) =>
      hunk.lines
        .filter((line) => line.startsWith(mark))
        .map((line) => line.slice(1))
        .join('\n');
    // A "\\ No newline" marker makes an otherwise equal pair differ at the end of the file.
    if (hunk.lines.some((line) => line.startsWith('\\')) || side('-') !== side('+')) return [];
    const why = hunk.lines.some((line) => line.startsWith('-'))
      ? 'the lines it removes are the lines it adds'
      : 'it has only context lines, none added or removed';
    return [`hunk ${index + 1} of ${patch.hunks.length} (${label}): ${why}`];
  });
}

// A hunk pointing past the end of the file reaches the comparer with no line at all.
const looseLine = (_lineNumber: number, line: string | undefined, _operation: string, content: string) =>
  line !== undefined && line.trim() === content.trim();

/** Exact context first; then placed ignoring indentation and re-indented by its drift; then context lines compared without surrounding whitespace. */
function applyHunks(label: string, source: string, patch: StructuredPatch): string {
  if (patch.hunks.length === 0) return source;
  try {
    const exact = applyPatch(source, patch);
    if (exact !== false) return exact;
    const aligned = alignHunkIndentation(source, patch);
    const realigned = aligned ? applyPatch(source, aligned) : false;
    if (realigned !== false) return realigned;
    const loose = applyPatch(source, patch, { compareLine: looseLine });
    if (loose !== false) return loose;
  } catch (error) {
    // Whatever a malformed diff does to the patch library, it is the model's error, never the run's.
    throw rejectEdit(
      'patch-does-not-apply',
      label,
      `the diff cannot be applied: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const failing = firstFailingHunk(source, patch);
  const hunk = patch.hunks[failing] as StructuredPatch['hunks'][number];
  const oldLines = hunk.lines
    .filter((line) => line.startsWith(' ') || line.startsWith('-'))
    .map((line) => line.slice(1));
  throw rejectEdit(
    'patch-does-not-apply',
    label,
    `hunk ${failing + 1} of ${patch.hunks.length} does not match the file, even ignoring indentation; ${describeClosestRegion(source, oldLines.join('\n'), 'hunk')}`,
    {
      hunk: failing + 1,
    },
  );
}

/** The first hunk that does not apply after the ones before it (0-based). */
function firstFailingHunk(source: string, patch: StructuredPatch): number {
  for (let count = 1; count < patch.hunks.length; count++) {
    if (applyPatch(source, { ...patch, hunks: patch.hunks.slice(0, count) }, { compareLine: looseLine }) === false)
      return count - 1;
  }
  return patch.hunks.length - 1;
}

/** `a/x` and `b/x` → `x` (git style, when both sides carry the prefix or the other is /dev/null). */
function stripPrefix(name: string | undefined, other: string | undefined): string | null {
  if (!name) return null;
  const clean = name.split('\t')[0]?.trim() ?? '';
  if (clean === DEV_NULL || clean === '') return null;
  const otherClean = other?.split('\t')[0]?.trim() ?? '';
  const prefixed = /^[ab]\//.test(clean) && (otherClean === DEV_NULL || /^[ab]\//.test(otherClean));
  return prefixed ? clean.slice(2) : clean;
}
