/** Reading a repository's history for the miner: `git log` records and the parsing of them. */
import { spawnSync } from 'node:child_process';
import type { ChangedFile, CommitRecord } from './candidates';

const RECORD = '\u001e';
const FIELD = '\u001f';
/** The `git log` format parseLog reads: one record per commit, then its --name-status lines. */
export const LOG_FORMAT = `${RECORD}%H${FIELD}%P${FIELD}%ad${FIELD}%s${FIELD}%b${FIELD}`;

export function parseLog(output: string): CommitRecord[] {
  return output
    .split(RECORD)
    .filter((record) => record.trim() !== '')
    .map((record) => {
      const [sha = '', parents = '', date = '', subject = '', body = '', changes = ''] = record.split(FIELD);
      const files: ChangedFile[] = changes
        .split('\n')
        .map((line) => line.split('\t'))
        .filter((parts) => parts.length >= 2 && /^[A-Z]/.test(parts[0] ?? ''))
        .map((parts) => ({ status: parts[0] ?? '', path: parts[parts.length - 1] ?? '' }));
      return { sha, parents: parents.split(' ').filter(Boolean), date, subject, body: body.trim(), files };
    });
}

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
}

export function git(gitDir: string, args: string[], cwd?: string): GitResult {
  const where = cwd ? ['-C', cwd] : [`--git-dir=${gitDir}`];
  const env = { ...process.env, GIT_TERMINAL_PROMPT: '0' };
  const result = spawnSync('git', [...where, ...args], { env, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

export function readHistory(gitDir: string, branch: string): CommitRecord[] {
  const result = git(gitDir, [
    'log',
    '--date=short',
    `--format=${LOG_FORMAT}`,
    '--name-status',
    '--no-renames',
    branch,
  ]);
  if (!result.ok) throw new Error(`git log ${branch} in ${gitDir}: ${result.stderr.trim()}`);
  return parseLog(result.stdout);
}
