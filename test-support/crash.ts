import fs from 'node:fs';
import path from 'node:path';
import type { WorkflowName } from '../shared/schemas/workflowName';
import { readLog } from '../electron/core/engine/runStore';
import { makeExampleRepo, REPLAYS, treeAt } from './exampleRepo';
import { runLathe } from './runCli';
import type { TempRepo } from './tempRepo';

export interface Finished {
  tree: Record<string, string>;
  subjects: string[];
  status: string;
}

export interface KillOutcome {
  point: number;
  killed: boolean;
  resumedCode: number | null;
  finished: Finished | null;
  problems: string[];
}

export const GOAL = 'fix median and document it in README.md';

export function onlyRun(repo: TempRepo): string {
  const runs = fs.existsSync(path.join(repo.dir, '.lathe', 'runs'))
    ? fs.readdirSync(path.join(repo.dir, '.lathe', 'runs'))
    : [];
  return runs.length === 1 ? (runs[0] ?? '') : '';
}

export function finished(repo: TempRepo, runId: string): Finished {
  const state = JSON.parse(fs.readFileSync(path.join(repo.dir, '.lathe', 'runs', runId, 'state.json'), 'utf8')) as {
    branch: string;
    status: string;
    workspace: { baseCommit: string };
  };
  const subjects = repo
    .git('log', '--format=%s', '--reverse', `${state.workspace.baseCommit}..${state.branch}`)
    .split('\n')
    .filter(Boolean);
  return { tree: treeAt(repo, state.branch), subjects, status: state.status };
}

export function runArgs(workflow: WorkflowName, repo: TempRepo): string[] {
  return [
    'run',
    '--repo',
    repo.dir,
    '--goal',
    GOAL,
    '--workflow',
    workflow,
    '--model',
    `replay:${path.join(REPLAYS, `js-stats.${workflow}.json`)}`,
    '--json',
    '--yes',
  ];
}

export function lockFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((name) => name.endsWith('.lock'));
}

/** The uninterrupted run of a workflow's demo transcript: what every resumed run must equal. */
export async function baselineRun(
  workflow: WorkflowName,
  home: string,
): Promise<{ finished: Finished; events: number }> {
  const repo = makeExampleRepo('js-stats');
  try {
    const result = await runLathe(runArgs(workflow, repo), { env: { LATHE_HOME: home } });
    if (result.code !== 0) throw new Error(`baseline ${workflow} exited ${result.code}: ${result.stderr}`);
    const runId = onlyRun(repo);
    return {
      finished: finished(repo, runId),
      events: readLog(path.join(repo.dir, '.lathe', 'runs', runId, 'log.jsonl')).length,
    };
  } finally {
    repo.remove();
  }
}

/** SIGKILL at the point-th log event, then `--resume`; reports everything that differs from a sound result. */
export async function killAndResume(workflow: WorkflowName, point: number, home: string): Promise<KillOutcome> {
  const repo = makeExampleRepo('js-stats');
  const problems: string[] = [];
  try {
    const killed = await runLathe(runArgs(workflow, repo), {
      env: { LATHE_HOME: home, LATHE_TEST_KILL_AT_EVENT: String(point) },
    });
    const runId = onlyRun(repo);
    if (killed.signal !== 'SIGKILL') problems.push(`not killed (exit ${killed.code})`);
    if (!runId)
      return { point, killed: false, resumedCode: null, finished: null, problems: [...problems, 'no run folder'] };
    const resumed = await runLathe(['run', '--repo', repo.dir, '--resume', runId, '--json', '--yes'], {
      env: { LATHE_HOME: home, LATHE_TEST_KILL_AT_EVENT: '' },
    });
    if (resumed.code !== 0) problems.push(`resume exited ${resumed.code}: ${resumed.stderr.slice(0, 300)}`);
    const runDir = path.join(repo.dir, '.lathe', 'runs', runId);
    const log = readLog(path.join(runDir, 'log.jsonl'));
    log.forEach((event, index) => event.seq !== index + 1 && problems.push(`seq ${event.seq} at line ${index + 1}`));
    const temps = fs.readdirSync(runDir).filter((name) => name.endsWith('.tmp'));
    if (temps.length > 0) problems.push(`temp files left: ${temps.join(', ')}`);
    const locks = lockFiles(path.join(repo.dir, '.git'));
    if (locks.length > 0) problems.push(`lock files left: ${locks.join(', ')}`);
    if (repo.git('status', '--porcelain') !== '') problems.push("the user's work tree changed");
    return {
      point,
      killed: killed.signal === 'SIGKILL',
      resumedCode: resumed.code,
      finished: finished(repo, runId),
      problems,
    };
  } finally {
    repo.remove();
  }
}

/** Deterministic sample of kill points: first, last, and evenly spread between. */
export function spreadPoints(events: number, count: number): number[] {
  if (count >= events) return Array.from({ length: events }, (_, index) => index + 1);
  return [
    ...new Set(
      Array.from({ length: count }, (_, index) => 1 + Math.round((index * (events - 1)) / Math.max(1, count - 1))),
    ),
  ];
}
