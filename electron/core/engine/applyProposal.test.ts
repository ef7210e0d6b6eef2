import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configFromWorkflow } from '../../../shared/engine/configFromWorkflow';
import { initialState } from '../../../shared/engine/initialState';
import { WORKFLOWS } from '../../../shared/engine/workflows';
import type { RunState } from '../../../shared/engine/runState';
import { makeTempDir } from '../../../test-support/tempRepo';
import { rejectEdit } from '../edits/rejection';
import { applyProposal } from './applyProposal';
import { createDefaultDeps } from './defaultDeps';
import type { EngineDeps } from './engineDeps';

let dir: string | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

/** The real edit formats, guardrails and writer; a git that only records what it was asked to commit. */
function deps(commits: string[][]): EngineDeps {
  const real = createDefaultDeps();
  const git = { ...real.git, headOf: async () => 'base', resetTo: async () => undefined, commitStep: async (_workspace: unknown, files: string[]) => (commits.push(files), 'c1') };
  return { ...real, git: git as EngineDeps['git'] };
}

function stateFor(workDir: string, edits: { path: string; search: string; replace: string }[]): RunState {
  const config = { ...configFromWorkflow(WORKFLOWS['dev-agent']), edit_format: 'search-replace' as const };
  return {
    ...initialState({ runId: 'r1', goal: 'fix it', goalHash: 'h', config, now: 't', nowMs: 0 }),
    workspace: { runId: 'r1', repoRoot: workDir, workDir, mode: 'in-place', branch: 'lathe/r1', baseCommit: 'base', originalBranch: 'main', protectedPaths: [] },
    head: 'base',
    proposal: { edits },
    proposal_files: [],
  };
}

describe('applyProposal reads the files it edits through the workspace reader', () => {
  it('refuses an edit to a binary file and leaves it as it was', async () => {
    dir = makeTempDir();
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0a, 0x1a, 0x00, 0x41]);
    fs.writeFileSync(path.join(dir, 'logo.png'), bytes);
    const commits: string[][] = [];
    const outcome = await applyProposal(deps(commits), stateFor(dir, [{ path: 'logo.png', search: 'A', replace: 'B' }]), 'coder');
    expect(outcome).toMatchObject({ kind: 'apply_rejected', code: 'EDIT_REJECTED', rule: 'binary-content', path: 'logo.png' });
    expect(fs.readFileSync(path.join(dir, 'logo.png'))).toEqual(bytes);
    expect(commits).toEqual([]);
  });

  it('puts the work tree back when the commit refuses a file git would store through a filter', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'secret.env'), 'KEY=1\n');
    const resets: string[] = [];
    const base = deps([]);
    const refusing = {
      ...base.git,
      resetTo: async (_workspace: unknown, commit: string) => void resets.push(commit),
      commitStep: async () => {
        throw rejectEdit('needs-filter', 'secret.env', 'git stores this file through the "crypt" filter');
      },
    };
    const outcome = await applyProposal({ ...base, git: refusing as EngineDeps['git'] }, stateFor(dir, [{ path: 'secret.env', search: 'KEY=1', replace: 'KEY=2' }]), 'coder');
    expect(outcome).toMatchObject({ kind: 'apply_rejected', code: 'EDIT_REJECTED', rule: 'needs-filter', path: 'secret.env' });
    expect(resets).toEqual(['base']);
  });

  it('refuses an edit to a file too large to plan, untouched', async () => {
    dir = makeTempDir();
    const big = `${'x'.repeat(1023)}\n`.repeat(9 * 1024);
    fs.writeFileSync(path.join(dir, 'huge.txt'), big);
    const outcome = await applyProposal(deps([]), stateFor(dir, [{ path: 'huge.txt', search: 'x', replace: 'y' }]), 'coder');
    expect(outcome).toMatchObject({ kind: 'apply_rejected', code: 'EDIT_REJECTED', rule: 'too-large', path: 'huge.txt' });
    expect(fs.statSync(path.join(dir, 'huge.txt')).size).toBe(big.length);
  });

  it('ends with FILE_UNREADABLE when a file exists but cannot be read, instead of creating it anew over the top', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'keep me\n');
    // Root reads any file, so the permission failure is injected where the reader asks.
    const realStat = fs.statSync;
    vi.spyOn(fs, 'statSync').mockImplementation(((target: fs.PathLike, ...rest: []) => {
      if (String(target).endsWith('secret.txt')) throw Object.assign(new Error(`EACCES: permission denied, stat '${String(target)}'`), { code: 'EACCES' });
      return realStat(target, ...rest);
    }) as typeof fs.statSync);
    const commits: string[][] = [];
    // An empty search creates a file: taken for missing, this would overwrite the user's file.
    const outcome = await applyProposal(deps(commits), stateFor(dir, [{ path: 'secret.txt', search: '', replace: 'new\n' }]), 'coder');
    expect(outcome).toMatchObject({ kind: 'fatal', code: 'FILE_UNREADABLE' });
    expect(fs.readFileSync(path.join(dir, 'secret.txt'), 'utf8')).toBe('keep me\n');
    expect(commits).toEqual([]);
  });

  it('still applies an ordinary text edit and commits the file', async () => {
    dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'a.js'), 'const a = 1;\n');
    const commits: string[][] = [];
    const outcome = await applyProposal(deps(commits), stateFor(dir, [{ path: 'a.js', search: 'const a = 1;', replace: 'const a = 2;' }]), 'coder');
    expect(outcome).toMatchObject({ kind: 'applied', files: ['a.js'] });
    expect(fs.readFileSync(path.join(dir, 'a.js'), 'utf8')).toBe('const a = 2;\n');
    expect(commits).toEqual([['a.js']]);
  });

  it("flushes each written file to the disk in the user's checkout, not in the run's own worktree", async () => {
    for (const mode of ['in-place', 'worktree'] as const) {
      dir = makeTempDir();
      fs.writeFileSync(path.join(dir, 'a.js'), 'const a = 1;\n');
      const flushed: number[] = [];
      const realFsync = fs.fsyncSync;
      const spy = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => (flushed.push(fd), realFsync(fd)));
      const state = stateFor(dir, [{ path: 'a.js', search: 'const a = 1;', replace: 'const a = 2;' }]);
      const outcome = await applyProposal(deps([]), { ...state, workspace: state.workspace && { ...state.workspace, mode } }, 'coder');
      spy.mockRestore();
      expect(outcome).toMatchObject({ kind: 'applied', files: ['a.js'] });
      expect(fs.readFileSync(path.join(dir, 'a.js'), 'utf8')).toBe('const a = 2;\n');
      expect({ mode, flushed: flushed.length }).toEqual({ mode, flushed: mode === 'in-place' ? 1 : 0 });
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

