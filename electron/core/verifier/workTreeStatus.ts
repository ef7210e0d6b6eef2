import fs from 'node:fs';
import path from 'node:path';
import { runNativeGit } from '../git/nativeGit';

/** One `git status` listing of a work tree, as the Verifier needs it. */
export interface WorkTreeStatus {
  /** HEAD's commit (`branch.oid`), null on an unborn branch. */
  head: string | null;
  /** Tracked paths whose work-tree file differs from the index (content, mode, type, or deleted). */
  changed: Map<string, 'deleted' | 'changed'>;
  /** Untracked entries; a folder whose whole content is untracked is one entry ending in `/`. */
  untracked: Set<string>;
  /** Ignored entries; an ignored folder is one entry ending in `/`. */
  ignored: Set<string>;
}

// `--ignored=matching` + `--untracked-files=normal`: an untracked or ignored folder is one entry, so a
// build folder of 10,000 files is one line, and git never walks into the ignored dependency links.
// `--no-ahead-behind`: `--branch` would otherwise walk history to count commits against an upstream.
// Optional locks stay on: the first status may write the refreshed index, so later ones hash nothing.
const STATUS_ARGS = [
  'status',
  '--porcelain=v2',
  '-z',
  '--branch',
  '--no-ahead-behind',
  '--no-renames',
  '--untracked-files=normal',
  '--ignored=matching',
];

/** Runs `git status` in `workDir` (never through a shell); null when git cannot tell (not a work tree, no git). */
export async function readWorkTreeStatus(workDir: string): Promise<WorkTreeStatus | null> {
  // catch-ok: null when git cannot start: this function's contract, and its callers' fallback
  let result = await runNativeGit(workDir, STATUS_ARGS).catch(() => null);
  // On a full disk the refreshed index cannot be written and git gives up ("Out of diskspace"): ask
  // again without it, or a suite that filled the disk would leave what it wrote behind.
  if (result && result.code !== 0)
    // catch-ok: null when git cannot start: this function's contract, and its callers' fallback
    result = await runNativeGit(workDir, STATUS_ARGS, { env: { GIT_OPTIONAL_LOCKS: '0' } }).catch(() => null);
  if (!result || result.code !== 0) return null;
  return parseStatus(result.stdout);
}

/** Parses `git status --porcelain=v2 -z --branch` output. */
export function parseStatus(output: string): WorkTreeStatus {
  const status: WorkTreeStatus = { head: null, changed: new Map(), untracked: new Set(), ignored: new Set() };
  const records = output.split('\0');
  for (let index = 0; index < records.length; index++) {
    const record = records[index] as string;
    if (record.startsWith('# branch.oid ')) {
      const oid = record.slice('# branch.oid '.length).trim();
      status.head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
    } else if (record.startsWith('1 ') || record.startsWith('2 ') || record.startsWith('u ')) {
      const fields = record.split(' ');
      // Ordinary: 8 fields before the path; renamed: 9 (and the original path follows as its own record); unmerged: 10.
      const before = record[0] === '1' ? 8 : record[0] === '2' ? 9 : 10;
      const file = fields.slice(before).join(' ');
      if (record[0] === '2') index++;
      const worktree = (fields[1] ?? '..')[1];
      if (record[0] === 'u') status.changed.set(file, 'changed');
      else if (worktree === 'D') status.changed.set(file, 'deleted');
      else if (worktree !== '.') status.changed.set(file, 'changed');
    } else if (record.startsWith('? ')) status.untracked.add(record.slice(2));
    else if (record.startsWith('! ')) status.ignored.add(record.slice(2));
  }
  return status;
}

/**
 * HEAD's commit read from the files (no git process): the `.git` folder or `gitdir:` file, HEAD, then
 * the loose ref or packed-refs. Null when it cannot be read this way (the caller may ask git). A few
 * tiny reads, synchronous: cheaper than a thread-pool round trip each on a busy machine.
 */
export function readHeadCommit(workDir: string): string | null {
  const read = (file: string) => {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      // catch-ok: null when it cannot be read this way, as documented: the caller asks git
      return null;
    }
  };
  const dotGit = path.join(workDir, '.git');
  let gitDir = dotGit;
  const pointerFile = read(dotGit);
  if (pointerFile !== null) {
    const pointer = /^gitdir: (.+)$/m.exec(pointerFile)?.[1]?.trim();
    if (!pointer) return null;
    gitDir = path.resolve(workDir, pointer);
  }
  const head = read(path.join(gitDir, 'HEAD'))?.trim() ?? '';
  if (/^[0-9a-f]{40,64}$/.test(head)) return head;
  const ref = /^ref: (refs\/\S+)$/.exec(head)?.[1];
  if (!ref || ref.includes('..')) return null;
  const commonPointer = read(path.join(gitDir, 'commondir'));
  const commonDir = commonPointer ? path.resolve(gitDir, commonPointer.trim()) : gitDir;
  for (const dir of new Set([gitDir, commonDir])) {
    const loose = read(path.join(dir, ref));
    if (loose && /^[0-9a-f]{40,64}\s*$/.test(loose)) return loose.trim();
  }
  for (const line of (read(path.join(commonDir, 'packed-refs')) ?? '').split('\n')) {
    const [oid, name] = line.split(' ');
    if (name === ref && oid && /^[0-9a-f]{40,64}$/.test(oid)) return oid;
  }
  return null;
}
