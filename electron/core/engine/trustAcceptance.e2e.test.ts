import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeExampleRepo, writeReplay } from '../../../test-support/exampleRepo';
import { runLathe } from '../../../test-support/runCli';
import { makeTempDir, type TempRepo } from '../../../test-support/tempRepo';
import { STATS } from '../../../test-support/transcripts';

// Issue 26's two held-out cases, through the command line as a user runs them: a failing test
// rewritten into a trivial one never ends exit 0, and an elided whole-file answer is never committed.
const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

const TESTS = fs.readFileSync(
  path.join(import.meta.dirname, '..', '..', '..', 'resources', 'examples', 'js-stats', 'test', 'stats.test.js'),
  'utf8',
);
/** The failing test "fixed" away: its assertions replaced by one that always holds. */
const TRIVIAL = TESTS.replace(
  '  assert.equal(median([7, 1, 3]), 3);\n  assert.equal(median([10, 1, 4, 2]), 3);\n',
  '  assert.ok(median);\n',
);
/** The fix as a whole-file answer with most of the file left out behind a placeholder. */
const ELIDED = STATS.fixed.replace(/^([\s\S]*?\n)(\/\*\* Middle value)/m, '// ... existing code ...\n\n$2');

function setup(outputs: unknown[]): { repo: TempRepo; replay: string; home: string } {
  const repo = makeExampleRepo('js-stats');
  repos.push(repo);
  const home = makeTempDir('lathe-home-');
  dirs.push(home);
  fs.writeFileSync(path.join(home, 'whole-file.yaml'), 'policies:\n  edit_format: whole-file\n');
  return { repo, replay: writeReplay(home, 'writer', outputs), home };
}

const coder = (file: string, content: string) => ({ role: 'coder', json: { edits: [{ path: file, content }] } });

describe('trust under a fallible model, through the CLI (issue 26)', () => {
  it('a failing test rewritten into a trivial one is refused where no gate reviews it: never exit 0, the test file untouched', async () => {
    expect(TRIVIAL).not.toBe(TESTS);
    const { repo, replay, home } = setup([
      coder('test/stats.test.js', TRIVIAL),
      coder('test/stats.test.js', TRIVIAL),
      coder('test/stats.test.js', TRIVIAL),
    ]);
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--workflow',
        'retry-loop',
        '--model',
        replay,
        '--config',
        path.join(home, 'whole-file.yaml'),
        '--json',
      ],
      { env: { LATHE_HOME: home } },
    );
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('tests-protected');
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
      branch: string;
      commits: string[];
    };
    expect(summary.commits).toEqual([]);
    expect(repo.git('show', `${summary.branch}:test/stats.test.js`)).toBe(TESTS.trimEnd());
  }, 120_000);

  it('with --yes, a gate showing the rewritten test waits for a person: never exit 0, nothing merged', async () => {
    const { repo, replay, home } = setup([coder('test/stats.test.js', TRIVIAL)]);
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--workflow',
        'dev-agent',
        '--gates',
        'step=human',
        '--yes',
        '--model',
        replay,
        '--config',
        path.join(home, 'whole-file.yaml'),
      ],
      { env: { LATHE_HOME: home }, closeStdin: true },
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'this change modifies existing tests: test/stats.test.js — approving it approves those test changes.',
    );
    expect(result.stdout).toMatch(/aborted: no answer \(input closed\); the run stays resumable at this gate/);
    expect(repo.git('show', 'HEAD:test/stats.test.js')).toBe(TESTS.trimEnd());
  }, 120_000);

  it('an elided whole-file answer is never committed; the next, whole answer is', async () => {
    expect(ELIDED).toContain('// ... existing code ...');
    const { repo, replay, home } = setup([coder('src/stats.js', ELIDED), coder('src/stats.js', STATS.fixed)]);
    const result = await runLathe(
      [
        'run',
        '--repo',
        repo.dir,
        '--goal',
        'fix median',
        '--workflow',
        'retry-loop',
        '--model',
        replay,
        '--config',
        path.join(home, 'whole-file.yaml'),
        '--json',
      ],
      { env: { LATHE_HOME: home } },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout + result.stderr).toContain('elided-code');
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
      branch: string;
      commits: string[];
    };
    expect(summary.commits).toHaveLength(1);
    expect(repo.git('log', '-p', summary.branch)).not.toContain('existing code');
  }, 120_000);
});
