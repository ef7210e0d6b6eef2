import type { Timing } from './timing';

/** One part's figures as the JSON holds them: timings and plain numbers by name. */
type Part = Record<string, Timing & number>;

export interface WorkspaceParts {
  commit: object;
  verifier: object;
  summary: object;
}

function row(name: string, value: string, note = ''): string {
  return `${name.padEnd(44)} ${value.padStart(12)}  ${note}`;
}

function commitRows(c: Part, files: number): string[] {
  return [
    row(`commit per step, native git (${files} files)`, `${c.nativeGit?.medianMs} ms`, 'git add + git commit -- paths'),
    row('commit per step, Lathe worktree run', `${c.latheWorktree?.medianMs} ms`, `ratio ${c.ratioWorktree}× native`),
    row(
      'commit per step, Lathe isomorphic-git only',
      `${c.latheInPlaceIsomorphicOnly?.medianMs} ms`,
      `ratio ${c.ratioIsomorphicOnly}× native`,
    ),
    row('startRun (worktree add)', `${c.startRunWorktreeMs} ms`, 'once per run'),
  ];
}

function verifierRows(v: Part): string[] {
  return [
    row('bare spawn of /bin/true', `${v.bareSpawn?.medianMs} ms`, `${v.runs} interleaved rounds`),
    row(
      'bubblewrap alone (the sandbox itself)',
      `${v.bwrapAlone?.medianMs} ms`,
      `over bare ${v.bwrapAloneOverheadMs} ms`,
    ),
    row(
      'verify() in bubblewrap, a checkout',
      `${v.verifyBwrap?.medianMs} ms`,
      `verify-overhead-over-bare-spawn ${v.overheadBwrapMs} ms (goal ≤ 15)`,
    ),
    row(
      'verify() in bubblewrap, a run worktree',
      `${v.verifyBwrapWorktreeVouched?.medianMs} ms`,
      `over bare ${v.overheadBwrapWorktreeVouchedMs} ms, as a run calls it (goal ≤ 15)`,
    ),
    row(
      '  first verify of that worktree',
      `${v.verifyBwrapWorktree?.medianMs} ms`,
      `over bare ${v.overheadBwrapWorktreeMs} ms (+ git status before)`,
    ),
    row('verify() checkout fallback', `${v.verifyCheckout?.medianMs} ms`, `over bare ${v.overheadCheckoutMs} ms`),
  ];
}

function summaryRows(s: Part, files: number): string[] {
  return [
    row(
      `repo summary, ${files} files (warm)`,
      `${s.warm?.medianMs} ms`,
      `cold ${s.coldMs} ms, ${s.summaryBytes} bytes`,
    ),
  ];
}

/** The printed table: a header row, then the rows of every part measured (only `only`'s when set). */
export function workspaceTable(results: WorkspaceParts, files: number, only: string | undefined): string {
  const sections = {
    commit: commitRows(results.commit as Part, files),
    verifier: verifierRows(results.verifier as Part),
    summary: summaryRows(results.summary as Part, files),
  };
  const shown = Object.entries(sections).flatMap(([name, rows]) => (!only || only === name ? rows : []));
  return [row('measure', 'median', 'notes'), ...shown].join('\n');
}
