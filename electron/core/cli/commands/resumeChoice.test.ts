import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFromWorkflow } from '../../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../../shared/engine/workflows';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { hashGoal, RunStore } from '../../engine/runStore';
import { listRuns } from '../../runs/listRuns';
import { latestResumable } from './resumeChoice';

let dir: string | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** A repository folder (no git needed) holding runs in the given phases, oldest first. */
function repoWithRuns(runs: Record<string, 'planning' | 'finished'>): string {
  dir = makeTempDir();
  for (const [runId, phase] of Object.entries(runs)) {
    const store = RunStore.create(dir, runId);
    store.saveState({
      ...initialState({
        runId,
        goal: 'g',
        goalHash: hashGoal('g'),
        config: configFromWorkflow(WORKFLOWS.minimal),
        now: 'now',
        nowMs: 0,
      }),
      phase,
    });
  }
  return dir;
}

/** A folder where state.json should be gives EISDIR, which even root cannot read. */
function makeUnreadable(repoRoot: string, runId: string): void {
  const file = path.join(repoRoot, '.lathe', 'runs', runId, 'state.json');
  fs.rmSync(file);
  fs.mkdirSync(file);
}

describe('a bare --resume picks the newest resumable run, never one behind a run it cannot read', () => {
  it('skips finished runs and folders without a state', async () => {
    const root = repoWithRuns({ '20260101T000000Z': 'planning', '20260102T000000Z': 'finished' });
    fs.mkdirSync(path.join(root, '.lathe', 'runs', '20260103T000000Z'));
    expect(await latestResumable(root)).toBe('20260101T000000Z');
  });

  it('a newest run whose state cannot be read is FILE_UNREADABLE, not passed over for an older one', async () => {
    const root = repoWithRuns({ '20260101T000000Z': 'planning', '20260102T000000Z': 'planning' });
    makeUnreadable(root, '20260102T000000Z');
    await expect(latestResumable(root)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
    expect(() => RunStore.readState(root, '20260102T000000Z')).toThrow(
      expect.objectContaining({ code: 'FILE_UNREADABLE' }),
    );
  });

  it('the history list still shows the runs it can read', async () => {
    const root = repoWithRuns({ '20260101T000000Z': 'planning', '20260102T000000Z': 'planning' });
    makeUnreadable(root, '20260102T000000Z');
    expect((await listRuns(root)).map((run) => run.runId)).toEqual(['20260101T000000Z']);
  });

  it('a runs folder the OS refuses to list (EACCES) is FILE_UNREADABLE, not "no runs"', async () => {
    const root = repoWithRuns({ '20260101T000000Z': 'planning' });
    const runs = path.join(root, '.lathe', 'runs');
    const readdir = fs.promises.readdir;
    vi.spyOn(fs.promises, 'readdir').mockImplementation(((target: fs.PathLike, options?: unknown) => {
      if (target === runs)
        return Promise.reject(
          Object.assign(new Error(`EACCES: permission denied, scandir '${runs}'`), { code: 'EACCES' }),
        );
      return readdir(target, options as BufferEncoding);
    }) as typeof fs.promises.readdir);
    await expect(listRuns(root)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
    await expect(latestResumable(root)).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });
});
