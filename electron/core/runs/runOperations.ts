import fs from 'node:fs';
import path from 'node:path';
import { LatheError } from '../../../shared/errors';
import type { RunWorkspace } from '../git/types';
import type { EngineDeps } from '../engine/engineDeps';
import { readLog, RunStore, runDir } from '../engine/runStore';
import { resolveRepoRoot } from '../git/repoStatus';
import { mergeRecordedRun, undoRecordedRun } from '../engine/closeRun';

const MAX_LOG_BYTES = 2 * 1024 * 1024;

/** What the History view does with a finished run: commits, diff, undo, merge, patch, report, full test log. */
/** The largest exported patch sent to the window as text (2 MB); a larger one is only written to disk. */
const MAX_PATCH_DOWNLOAD_BYTES = 2 * 1024 * 1024;

export class RunOperations {
  constructor(
    private readonly deps: Pick<EngineDeps, 'git'> & Partial<Pick<EngineDeps, 'releaseArtifacts'>>,
    private readonly artifactRoot: string,
    private readonly isActive: (repoRoot: string, runId: string) => boolean,
  ) {}

  /** The run's branch from its saved state alone: readers never open (or repair) a log a live run may be appending to. */
  private async workspaceOf(repo: string, runId: string): Promise<{ repoRoot: string; workspace: RunWorkspace }> {
    const repoRoot = await resolveRepoRoot(repo);
    const state = RunStore.readState(repoRoot, runId);
    if (!state.workspace)
      throw new LatheError('NO_WORKSPACE', `run ${runId} never created a branch`, { run_id: runId });
    return { repoRoot, workspace: state.workspace };
  }

  /** A run no session holds: only then may the user's undo or merge be appended to its log. */
  private async idle(repo: string, runId: string): Promise<string> {
    const repoRoot = await resolveRepoRoot(repo);
    if (this.isActive(repoRoot, runId))
      throw new LatheError('RUN_ACTIVE', `run ${runId} is still running; stop it first`, { run_id: runId });
    return repoRoot;
  }

  async commits(repo: string, runId: string) {
    const { workspace } = await this.workspaceOf(repo, runId);
    return { commits: await this.deps.git.listRunCommits(workspace) };
  }

  async diff(repo: string, runId: string, from?: string, to?: string) {
    const { workspace } = await this.workspaceOf(repo, runId);
    const head = to ?? (await this.deps.git.headOf(workspace));
    const base = from ?? workspace.baseCommit;
    return { base, head, files: await this.deps.git.diffRun(workspace, base, head) };
  }

  async undo(repo: string, runId: string) {
    await undoRecordedRun(this.deps, await this.idle(repo, runId), runId);
    return { undone: true };
  }

  async merge(repo: string, runId: string) {
    const { merged } = await mergeRecordedRun(this.deps, await this.idle(repo, runId), runId);
    return { merged };
  }

  async exportPatch(repo: string, runId: string) {
    const { repoRoot, workspace } = await this.workspaceOf(repo, runId);
    const written = await this.deps.git.exportPatch(workspace, path.join(runDir(repoRoot, runId), `${runId}.patch`));
    // A browser window cannot reach the core's disk: it gets the text to download, within reason.
    const size = fs.statSync(written.file).size;
    return { ...written, patch: size <= MAX_PATCH_DOWNLOAD_BYTES ? fs.readFileSync(written.file, 'utf8') : null };
  }

  async report(repo: string, runId: string) {
    const repoRoot = await resolveRepoRoot(repo);
    const dir = runDir(repoRoot, runId);
    if (!fs.existsSync(path.join(dir, 'state.json')))
      throw new LatheError('RUN_NOT_FOUND', `no run ${runId}`, { run_id: runId });
    const read = (name: string) =>
      fs.existsSync(path.join(dir, name)) ? fs.readFileSync(path.join(dir, name), 'utf8') : null;
    return {
      report: read('report.md'),
      prDescription: read('pr-description.md'),
      stuckReport: read('stuck-report.md'),
    };
  }

  /** The full output of one Verifier run of this run; only folders the run's own log names, inside the artifact root. */
  async verifierLog(repo: string, runId: string, verifyRunId: string) {
    const repoRoot = await resolveRepoRoot(repo);
    const events = readLog(path.join(runDir(repoRoot, runId), 'log.jsonl'));
    const result = events.find((event) => event.type === 'test_result' && event.data.verify_run_id === verifyRunId);
    const artifactDir = typeof result?.data.artifact_dir === 'string' ? path.resolve(result.data.artifact_dir) : null;
    if (!artifactDir || !artifactDir.startsWith(path.resolve(this.artifactRoot) + path.sep)) {
      throw new LatheError('NOT_FOUND', `no Verifier run ${verifyRunId} in run ${runId}`, { run_id: runId });
    }
    const file = path.join(artifactDir, 'logs', 'test.log');
    if (!fs.existsSync(file))
      throw new LatheError('NOT_FOUND', `the Verifier log of ${verifyRunId} was pruned`, { run_id: runId });
    const size = fs.statSync(file).size;
    const handle = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(size, MAX_LOG_BYTES));
      fs.readSync(handle, buffer, 0, buffer.length, Math.max(0, size - buffer.length));
      return { text: buffer.toString('utf8'), truncated: size > MAX_LOG_BYTES, path: file };
    } finally {
      fs.closeSync(handle);
    }
  }
}
