import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { listWithBlobs } from '../context/gitListing';
import { verify } from '../verifier/verify';
import { createGitFacade } from './gitFacade';
import { readRepoStatus } from '../workspace/repoStatus';

/**
 * A repository whose config, attributes and hooks point every program git can run at a trap that
 * leaves a marker; Lathe's own git calls for a whole run (start, commit, refusal, status, diff,
 * export, verify, reset, merge, push, undo) must leave none. Each key's trap is shown to fire under
 * plain git, so a test passes only because Lathe kept it off.
 */
let repo: TempRepo;
let markers: string;
let sanityMarkers: string;
let trap: string;
let server: http.Server;
let refusal: unknown;
let lathesMarkers: string[] = [];
const facade = createGitFacade();

const HOOKS = [
  'post-checkout',
  'reference-transaction',
  'pre-commit',
  'post-commit',
  'post-merge',
  'pre-push',
  'post-index-change',
  'pre-auto-gc',
];

/** Async: the HTTP remote answering 401 lives in this process. */
function git(args: string[], env: Record<string, string>): Promise<void> {
  return new Promise((resolve) =>
    execFile('git', args, { cwd: repo.dir, env: { ...process.env, ...env }, timeout: 20_000 }, () => resolve()),
  );
}

/** Runs `args` with plain git (no overrides, no prompt) and returns the trap markers it left. */
async function firedByPlainGit(args: string[]): Promise<string[]> {
  fs.rmSync(sanityMarkers, { recursive: true, force: true });
  fs.mkdirSync(sanityMarkers);
  await git(args, { TRAP_DIR: sanityMarkers, GIT_TERMINAL_PROMPT: '0' });
  return fs.readdirSync(sanityMarkers);
}

function arm(port: number): void {
  const set = (key: string, value: string) => repo.git('config', key, value);
  set('core.fsmonitor', `${trap} fsmonitor`);
  set('filter.trapa.clean', `${trap} filter-info-clean`);
  set('filter.trapa.smudge', `${trap} filter-info-smudge`);
  set('filter.trapb.clean', `${trap} filter-attributes-clean`);
  set('filter.trapb.smudge', `${trap} filter-attributes-smudge`);
  set('filter.trapb.required', 'true');
  set('filter.trapp.process', `${trap} filter-process`);
  set('diff.external', `${trap} diff-external`);
  set('diff.trapdiff.textconv', `${trap} textconv`);
  set('diff.trapcmd.command', `${trap} diff-command`);
  set('merge.trapmerge.driver', `${trap} merge-driver %O %A %B`);
  set('core.pager', `${trap} pager`);
  set('credential.helper', `${trap} credential-helper`);
  set('core.askPass', `${trap}-askpass`);
  set('core.sshCommand', `${trap} ssh-command`);
  set('commit.gpgSign', 'true');
  set('gpg.program', `${trap}-gpg`);
  set('protocol.ext.allow', 'always');
  set('remote.http.url', `http://127.0.0.1:${port}/repo.git`);
  set('remote.ssh.url', 'ssh://git@127.0.0.1:1/repo.git');
  set('remote.local.url', makeTempDir('lathe-hostile-remote-'));
  set('remote.local.receivepack', `${trap} receivepack`);
  set('remote.ext.url', `ext::${trap} ext`);
  fs.writeFileSync(
    path.join(repo.dir, '.git/info/attributes'),
    '*.txt filter=trapa diff=trapdiff merge=trapmerge\n*.md diff=trapcmd\n',
  );
  for (const hook of HOOKS)
    fs.writeFileSync(path.join(repo.dir, '.git/hooks', hook), `#!/bin/sh\nexec ${trap} hook-${hook}\n`, {
      mode: 0o755,
    });
}

beforeAll(async () => {
  markers = makeTempDir('lathe-markers-');
  sanityMarkers = path.join(makeTempDir('lathe-sanity-'), 'markers');
  trap = path.join(makeTempDir('lathe-trap-'), 'trap.sh');
  // Filters and textconv pass the content through, so plain git still works while the trap fires.
  fs.writeFileSync(
    trap,
    `#!/bin/sh\ntouch "\${TRAP_DIR:-${markers}}/$1"\ncase "$1" in filter-*) exec cat ;; textconv) exec cat "$2" ;; esac\nexit 1\n`,
    { mode: 0o755 },
  );
  // gpg.program and core.askPass are run without a shell: programs of their own.
  for (const name of ['gpg', 'askpass'])
    fs.writeFileSync(`${trap}-${name}`, `#!/bin/sh\nexec ${trap} ${name}\n`, { mode: 0o755 });
  server = http.createServer((_request, response) =>
    response.writeHead(401, { 'WWW-Authenticate': 'Basic realm="lathe"' }).end(),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  repo = makeTempRepo({
    files: {
      'a.txt': 'one\n',
      'b.dat': 'data\n',
      'c.proc': 'process\n',
      'README.md': '# r\n',
      'src/x.js': 'x;\n',
      '.gitattributes': '*.dat filter=trapb\n*.proc filter=trapp\n',
    },
  });
  repo.git('tag', 'c1');
  repo.write('a.txt', 'two\n');
  repo.write('README.md', '# r2\n');
  repo.commitAll('second');
  repo.git('tag', 'c2');
  repo.git('branch', 'side', 'c1');
  repo.git('checkout', '-q', 'side');
  repo.write('a.txt', 'three\n');
  repo.commitAll('side');
  repo.git('checkout', '-q', 'main');
  arm((server.address() as { port: number }).port);

  const options = { branchPrefix: 'lathe', allowDirty: false };
  await facade.preflight(repo.dir);
  await readRepoStatus(repo.dir);
  const run = await facade.startRun(repo.dir, { ...options, runId: 'hostile1' });
  fs.writeFileSync(path.join(run.workDir, 'src/x.js'), 'x = 2;\n');
  await facade.commitStep(run, ['src/x.js'], { runId: 'hostile1', taskId: 'T1', title: 'x', role: 'coder' });
  fs.writeFileSync(path.join(run.workDir, 'a.txt'), 'changed\n');
  refusal = await facade
    .commitStep(run, ['a.txt'], { runId: 'hostile1', taskId: 'T1', title: 'a', role: 'coder' })
    .catch((error: unknown) => error);
  await facade.resetTo(run, await facade.headOf(run));
  await facade.listRunCommits(run);
  await facade.diffRun(run);
  await facade.exportPatch(run, path.join(markers, '..', 'run.patch'));
  await listWithBlobs(run.workDir);
  await verify({
    workDir: run.workDir,
    argv: ['node', '-e', 'process.exit(0)'],
    timeoutMs: 20_000,
    artifactRoot: makeTempDir('lathe-hostile-artifacts-'),
  });
  for (const remote of ['http', 'ssh', 'local', 'ext']) await facade.pushRun(run, remote).catch(() => null);
  await facade.mergeRun(run);
  await facade.closeRun(run);
  const inPlace = await facade.startRun(repo.dir, { ...options, runId: 'hostile2', mode: 'in-place' });
  fs.writeFileSync(path.join(repo.dir, 'src/x.js'), 'x = 3;\n');
  await facade.commitStep(inPlace, ['src/x.js'], { runId: 'hostile2', taskId: 'T1', title: 'x', role: 'coder' });
  await facade.resetTo(inPlace, inPlace.baseCommit);
  await facade.undoRun(inPlace);
  lathesMarkers = fs.readdirSync(markers);
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  repo.remove();
  for (const dir of [markers, path.dirname(sanityMarkers), path.dirname(trap)])
    fs.rmSync(dir, { recursive: true, force: true });
});

/** Each key: the markers its trap leaves, and a plain git command that fires it. */
const KEYS: [string, string[], string[]][] = [
  ['core.fsmonitor', ['fsmonitor'], ['status']],
  [
    'hooks (.git/hooks, core.hooksPath)',
    [...HOOKS.map((hook) => `hook-${hook}`)],
    ['checkout', '-q', '-b', 'sanity-hooks'],
  ],
  [
    'filter clean/smudge named in .git/info/attributes',
    ['filter-info-clean'],
    ['hash-object', '--path=a.txt', 'a.txt'],
  ],
  [
    'filter clean/smudge named in .gitattributes, required',
    ['filter-attributes-clean'],
    ['hash-object', '--path=b.dat', 'b.dat'],
  ],
  ['filter process', ['filter-process'], ['hash-object', '--path=c.proc', 'c.proc']],
  ['diff.external', ['diff-external'], ['diff', 'c1', 'c2', '--', 'a.txt']],
  ['diff.<driver>.textconv', ['textconv'], ['log', '-p', '-1', '--no-ext-diff', 'c2']],
  ['diff.<driver>.command', ['diff-command'], ['-c', 'diff.external=', 'diff', 'c1', 'c2', '--', 'README.md']],
  ['merge.<driver>.driver', ['merge-driver'], ['merge-tree', '--write-tree', 'side', 'c2']],
  ['credential.helper', ['credential-helper'], ['push', 'http', 'HEAD:refs/heads/x']],
  ['core.askPass', ['askpass'], ['-c', 'credential.helper=', 'push', 'http', 'HEAD:refs/heads/x']],
  ['core.sshCommand', ['ssh-command'], ['push', 'ssh', 'HEAD:refs/heads/x']],
  ['remote.<name>.receivepack', ['receivepack'], ['push', 'local', 'HEAD:refs/heads/x']],
  ['ext:: remotes (protocol.ext.allow)', ['ext'], ['push', 'ext', 'HEAD:refs/heads/x']],
  ['commit.gpgSign / gpg.program', ['gpg'], ['commit', '-q', '--no-verify', '--allow-empty', '-m', 'signed?']],
];

describe("Lathe's own git never runs the repository's programs", () => {
  it.each(KEYS)('%s: its trap fires under plain git, never under Lathe', async (_key, names, plainArgs) => {
    const fired = await firedByPlainGit(plainArgs);
    expect(names.some((name) => fired.includes(name))).toBe(true);
    expect(lathesMarkers.filter((name) => names.includes(name))).toEqual([]);
  });

  it('core.pager: fires under plain git on a terminal, never under Lathe', () => {
    fs.rmSync(sanityMarkers, { recursive: true, force: true });
    fs.mkdirSync(sanityMarkers);
    execFileSync('script', ['-qec', 'git log -1', '/dev/null'], {
      cwd: repo.dir,
      env: { ...process.env, TRAP_DIR: sanityMarkers },
      stdio: 'ignore',
      timeout: 20_000,
    });
    expect(fs.readdirSync(sanityMarkers)).toContain('pager');
    expect(lathesMarkers).not.toContain('pager');
  });

  it('left no marker at all over a whole run', () => {
    expect(lathesMarkers).toEqual([]);
  });

  it('refuses to commit a file git would store through a filter, naming the path and the filter', () => {
    expect(refusal).toMatchObject({
      code: 'EDIT_REJECTED',
      data: { rule: 'needs-filter', path: 'a.txt', filter: 'trapa' },
    });
    expect((refusal as Error).message).toContain('"trapa" filter');
    expect(repo.git('log', '--format=%s', '-5', 'main')).not.toContain('a\n');
  });
});
