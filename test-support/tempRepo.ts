import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TempRepo {
  dir: string;
  git(...args: string[]): string;
  write(relative: string, content: string): void;
  commitAll(message: string): string;
  remove(): void;
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test Author',
  GIT_AUTHOR_EMAIL: 'author@example.test',
  GIT_COMMITTER_NAME: 'Test Author',
  GIT_COMMITTER_EMAIL: 'author@example.test',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** A real git repository in a fresh temp folder, made with the native git CLI. */
export function makeTempRepo(
  options: { branch?: string; files?: Record<string, string>; prefix?: string } = {},
): TempRepo {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), options.prefix ?? 'lathe-repo-')));
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' }).trim();
  const write = (relative: string, content: string) => {
    const target = path.join(dir, relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  };
  git('init', '--quiet', `--initial-branch=${options.branch ?? 'main'}`);
  for (const [relative, content] of Object.entries(options.files ?? {})) write(relative, content);
  const repo: TempRepo = {
    dir,
    git,
    write,
    commitAll(message) {
      git('add', '--all');
      git('commit', '--quiet', '--no-gpg-sign', '-m', message);
      return git('rev-parse', 'HEAD');
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 }),
  };
  if (options.files) repo.commitAll('initial commit');
  return repo;
}

export function makeTempDir(prefix = 'lathe-tmp-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}
