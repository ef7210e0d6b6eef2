import { parsePatch } from 'diff';
import { z } from 'zod';
import { LatheError } from '../../../../shared/errors';
import { isTestFile } from '../../edits/policy';
import { runNativeGit } from '../../git/nativeGit';
import type { GoldPatch } from '../../llm/oracle/goldPatch';
import type { TestCounts } from '../../verifier/types';

/** What a run left on its branch that the fix did not need: measured against the gold patch. */
export const DamageSchema = z.object({
  /** Added lines that say code was left out (`// ... existing code ...` and the like). */
  placeholder_lines: z.number().int().nonnegative(),
  /** Changes in gold files outside the gold hunks, and in files neither gold nor tests (git's hunks, 3 lines apart at most). */
  unrelated_hunks: z.number().int().nonnegative(),
  /** Test files changed or deleted, plus one when the branch runs fewer tests than the fixed tree. */
  tests_weakened: z.number().int().nonnegative(),
  /** Files the branch adds that the gold patch does not. */
  stray_files: z.number().int().nonnegative(),
});
export type Damage = z.infer<typeof DamageSchema>;

export const NO_DAMAGE: Damage = { placeholder_lines: 0, unrelated_hunks: 0, tests_weakened: 0, stray_files: 0 };

export const isDamaging = (damage: Damage | null | undefined): boolean =>
  !!damage && Object.values(damage).some((count) => count > 0);

/**
 * A comment line that stands for code left out: `// ... existing code ...` (what the fault simulator
 * writes), `# ... rest of the file unchanged`, `/* … *\/`, a bare `// ...`.
 */
const PLACEHOLDER =
  /^\s*(?:\/\/|#|\/\*+|\*|<!--|--)\s*(?:\.{3}|…)\s*(?:(?:the\s+)?(?:existing|rest|remaining|unchanged|same|other|previous|omitted|original)\b.*|(?:\*\/|-->)?\s*)$|^\s*(?:\/\/|#)\s*(?:rest of|remaining|existing|unchanged)\b.*(?:unchanged|code|file|here|same)\b.*$/i;

export function isPlaceholderLine(line: string): boolean {
  return PLACEHOLDER.test(line.replace(/\r?\n$/, ''));
}

/**
 * Lines a change of `start, count` (old side, as jsdiff reads it) covers; a pure insertion covers the
 * lines around it. jsdiff gives an insertion's start as the line it comes before (git's `-105,0` is
 * 106), so the line after which it goes is `start - 1`: an insertion at the end of a file (pflag's gold
 * hunk appending a function) was otherwise one line past the gold hunk and counted as unrelated.
 */
function span(start: number, count: number): [number, number] {
  return count === 0 ? [start - 1, start] : [start, start + count - 1];
}

const overlaps = (a: [number, number], b: [number, number]) => a[0] <= b[1] && b[0] <= a[1];

/** Hunks within this many lines of each other are one hunk for git (three lines of context on each side). */
const MERGE_GAP = 6;

function countHunks(spans: [number, number][]): number {
  const sorted = [...spans].sort((a, b) => a[0] - b[0]);
  let count = 0;
  let end = -Infinity;
  for (const [from, to] of sorted) {
    if (from - end > MERGE_GAP + 1) count++;
    end = Math.max(end, to);
  }
  return count;
}

/**
 * The damage a branch diff (`git diff -U0 --no-renames BASE HEAD`) carries compared with the gold patch;
 * `fewerTests`: the branch runs fewer tests than the fixed tree.
 */
export function damageOf(branchDiff: string, gold: GoldPatch, fewerTests: boolean): Damage {
  const goldFiles = new Map(gold.files.map((file) => [file.path, file]));
  const damage = { ...NO_DAMAGE, tests_weakened: fewerTests ? 1 : 0 };
  for (const file of parsePatch(branchDiff)) {
    const strip = (name: string | undefined) =>
      name && name !== '/dev/null' ? (name.replace(/^[ab]\//, '').split('\t')[0] ?? null) : null;
    const before = strip(file.oldFileName);
    const after = strip(file.newFileName);
    const path = after ?? before;
    if (!path) continue;
    damage.placeholder_lines += file.hunks.reduce(
      (sum, hunk) => sum + hunk.lines.filter((line) => line.startsWith('+') && isPlaceholderLine(line.slice(1))).length,
      0,
    );
    const goldFile = goldFiles.get(path);
    if (before === null) {
      if (goldFile?.kind !== 'create') damage.stray_files++;
      continue;
    }
    if (isTestFile(path) && !goldFile) {
      damage.tests_weakened++;
      continue;
    }
    if (goldFile && goldFile.kind !== 'modify') continue;
    const goldSpans = (goldFile?.hunks ?? []).map((hunk) => span(hunk.oldIndex + 1, hunk.before.length));
    const outside = file.hunks
      .map((hunk) => span(hunk.oldStart, hunk.oldLines))
      .filter((range) => !goldSpans.some((goldSpan) => overlaps(range, goldSpan)));
    damage.unrelated_hunks += countHunks(outside);
  }
  return damage;
}

/** The damage on a run's branch: its diff from `base` to `head`, read with git, against the gold patch. */
export async function branchDamage(
  repoDir: string,
  base: string,
  head: string,
  gold: GoldPatch,
  counts: { head: TestCounts | null; fixed: TestCounts | null },
): Promise<Damage> {
  const diff = await runNativeGit(repoDir, ['diff', '-U0', '--no-renames', '--no-color', '--no-ext-diff', base, head]);
  if (diff.code !== 0)
    throw new LatheError(
      'CORPUS_GIT_FAILED',
      `git diff ${base.slice(0, 12)} ${head.slice(0, 12)} in ${repoDir}: ${diff.stderr.trim().slice(0, 400)}`,
      { base, head },
    );
  // A branch that changed nothing carries no damage, whatever its bare run counts.
  return damageOf(diff.stdout, gold, diff.stdout.trim() !== '' && fewerTests(counts.head, counts.fixed));
}

/**
 * The branch's bare run counts fewer tests than the fixed tree's: tests were deleted, emptied or
 * overwritten. Only a run without failures is compared: a failing suite may stop at its first failure
 * (mocha --bail, pytest -x), and its smaller total then says nothing of lost tests (a test file the
 * branch changed is counted from the diff either way).
 */
export function fewerTests(head: TestCounts | null, fixed: TestCounts | null): boolean {
  return !!head && !!fixed && head.failed === 0 && head.total < fixed.total;
}
