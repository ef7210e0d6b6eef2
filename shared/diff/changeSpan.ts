/**
 * What a gate's change card and the diff it opens both count (issue 29: the card said +5 −3 where the
 * diff said +3 −1). The card summed every edit set's own counts, so a line one commit wrote and the next
 * rewrote was counted in both; the diff counts the net change of a span. Both now count the span.
 */

/** A span of the run's history: `from` (absent: the run's base) to `to`, as `run/diff` takes it. */
export interface ChangeSpan {
  from?: string;
  to: string;
}

/**
 * The span covering the reviewed commits: from the parent of the first (the run's base when it is the
 * run's first commit) to the last, by their order in the run. Null when none of them is in the run.
 */
export function changeSpan(runCommits: readonly { sha: string }[], reviewed: readonly string[]): ChangeSpan | null {
  const indexes = reviewed
    .map((sha) => runCommits.findIndex((commit) => commit.sha === sha))
    .filter((index) => index >= 0);
  if (indexes.length === 0) return null;
  const first = Math.min(...indexes);
  const last = runCommits[Math.max(...indexes)];
  if (!last) return null;
  const parent = first > 0 ? runCommits[first - 1]?.sha : undefined;
  return parent ? { from: parent, to: last.sha } : { to: last.sha };
}

/** The net line counts per file of one span's diff, sorted by path: one entry a file, never a sum over commits. */
export function spanCounts(
  files: readonly { path: string; added: number; removed: number }[],
): { path: string; added: number; removed: number }[] {
  return files
    .map(({ path, added, removed }) => ({ path, added, removed }))
    .sort((a, b) => a.path.localeCompare(b.path));
}
