import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir, makeTempRepo, type TempRepo } from '../../../test-support/tempRepo';
import { createReadOnlyTools } from './readOnlyTools';

const repos: TempRepo[] = [];
const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  repos.splice(0).forEach((repo) => repo.remove());
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});

function project(): TempRepo {
  const repo = makeTempRepo({
    files: {
      '.gitignore': 'node_modules/\n*.log\nbuild/\n!keep.log\n',
      'README.md': '# Stats service\n\nComputes stats.\n',
      'package.json': '{"name":"stats","description":"Summary statistics for user data"}\n',
      'src/stats.py': '"""Summary statistics helpers."""\n\ndef mean(values):\n    return sum(values) / len(values)\n',
      'src/util/strings.ts':
        '// Copyright 2024 Someone\n// String helpers for report output.\nexport const pad = (s: string) => s;\n',
      'src/vendor/.gitignore': 'generated.js\n',
      'src/vendor/generated.js': 'x\n',
      'src/vendor/kept.js': 'y\n',
      'tests/test_stats.py': 'from src.stats import mean\n\ndef test_mean():\n    assert mean([1, 3]) == 2\n',
      'keep.log': 'kept despite *.log\n',
    },
  });
  repo.write('node_modules/dep/index.js', 'ignored\n');
  repo.write('debug.log', 'ignored\n');
  repo.write('build/out.js', 'ignored\n');
  repo.write('.lathe/runs/r1/state.json', '{}\n');
  repos.push(repo);
  return repo;
}

describe('listFiles', () => {
  it('honours nested .gitignore files, negations and info/exclude, and skips .git and .lathe', async () => {
    const repo = project();
    fs.appendFileSync(path.join(repo.dir, '.git', 'info', 'exclude'), 'README.md\n');
    const { files, truncated } = await createReadOnlyTools(repo.dir).listFiles();
    expect(files).toEqual([
      '.gitignore',
      'keep.log',
      'package.json',
      'src/stats.py',
      'src/util/strings.ts',
      'src/vendor/.gitignore',
      'src/vendor/kept.js',
      'tests/test_stats.py',
    ]);
    expect(truncated).toBe(false);
  });

  it('lists under a folder with a limit, and refuses folders outside the repo', async () => {
    const repo = project();
    const tools = createReadOnlyTools(repo.dir);
    expect(await tools.listFiles({ under: 'src', limit: 2 })).toEqual({
      files: ['src/stats.py', 'src/util/strings.ts'],
      truncated: true,
      unreadable: [],
    });
    expect(await tools.listFiles({ under: 'node_modules' })).toEqual({ files: [], truncated: false, unreadable: [] });
    expect(await tools.listFiles({ under: 'no/such/folder' })).toEqual({ files: [], truncated: false, unreadable: [] });
    await expect(tools.listFiles({ under: '../' })).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  // Decision 75: a folder that cannot be listed is skipped as git status skips it, but named, as git warns.
  it('skips a folder it cannot list and names it, as git warns', async () => {
    const repo = project();
    const readdir = fs.promises.readdir.bind(fs.promises);
    const refused = new Set([path.join(repo.dir, 'src', 'util'), path.join(repo.dir, 'tests')]);
    vi.spyOn(fs.promises, 'readdir').mockImplementation((async (
      folder: fs.PathLike,
      options?: { withFileTypes: true },
    ) =>
      refused.has(String(folder))
        ? Promise.reject(
            Object.assign(new Error(`EACCES: permission denied, scandir '${String(folder)}'`), { code: 'EACCES' }),
          )
        : readdir(folder, options as { withFileTypes: true })) as unknown as typeof fs.promises.readdir);
    const listed = await createReadOnlyTools(repo.dir).listFiles();
    expect(listed.files).toEqual([
      '.gitignore',
      'README.md',
      'keep.log',
      'package.json',
      'src/stats.py',
      'src/vendor/.gitignore',
      'src/vendor/kept.js',
    ]);
    expect(listed.unreadable).toEqual(['src/util', 'tests']);
  });
});

describe('readFile', () => {
  it('reads with a size cap and refuses escapes, .git, binary files and missing files', async () => {
    const repo = project();
    const outside = makeTempDir();
    dirs.push(outside);
    fs.writeFileSync(path.join(outside, 'secret'), 'secret\n');
    fs.symlinkSync(outside, path.join(repo.dir, 'out'));
    fs.writeFileSync(path.join(repo.dir, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
    const tools = createReadOnlyTools(repo.dir);
    expect(await tools.readFile('src/stats.py')).toEqual({
      content: expect.stringContaining('def mean'),
      truncated: false,
    });
    const capped = await tools.readFile('src/stats.py', { maxBytes: 40 });
    expect(capped.truncated).toBe(true);
    expect(capped.content).toBe('"""Summary statistics helpers."""\n\n');
    await expect(tools.readFile('../x')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(tools.readFile('/etc/passwd')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(tools.readFile('.git/config')).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(tools.readFile('out/secret')).rejects.toMatchObject({
      code: 'INVALID_PATH',
      data: { rule: 'symlink-escape' },
    });
    await expect(tools.readFile('img.png')).rejects.toMatchObject({ code: 'BINARY_FILE' });
    await expect(tools.readFile('nope.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('searchText', () => {
  it('finds literal text and regexes with line numbers, capped, never in ignored files', async () => {
    const repo = project();
    const tools = createReadOnlyTools(repo.dir);
    expect(await tools.searchText('mean(')).toEqual({
      hits: [
        { path: 'src/stats.py', line: 3, text: 'def mean(values):' },
        { path: 'tests/test_stats.py', line: 3, text: 'def test_mean():' },
        { path: 'tests/test_stats.py', line: 4, text: '    assert mean([1, 3]) == 2' },
      ],
      truncated: false,
    });
    expect(await tools.searchText('ignored')).toEqual({ hits: [], truncated: false });
    expect((await tools.searchText('^def \\w+', { regex: true })).hits.map((hit) => hit.path)).toEqual([
      'src/stats.py',
      'tests/test_stats.py',
    ]);
    expect(await tools.searchText('e', { maxResults: 2 })).toMatchObject({ truncated: true, hits: [{}, {}] });
    expect([...new Set((await tools.searchText('mean', { under: 'tests' })).hits.map((hit) => hit.path))]).toEqual([
      'tests/test_stats.py',
    ]);
    await expect(tools.searchText('(unclosed', { regex: true })).rejects.toMatchObject({ code: 'INVALID_QUERY' });
  });

  it('stops a catastrophic regex at its time budget instead of hanging', async () => {
    const repo = project();
    repo.write('evil.txt', `${'a'.repeat(1990)}!\n`);
    const started = Date.now();
    const result = await createReadOnlyTools(repo.dir).searchText('^(a+)+$', { regex: true });
    expect(result.truncated).toBe(true);
    expect(Date.now() - started).toBeLessThan(8000);
  });
});

// docs/seeds.md 0.13: the repo summary (paths and brief notes)
describe('repoSummary', () => {
  it('gives one line per path with language, size and first doc line', async () => {
    const repo = project();
    const summary = await createReadOnlyTools(repo.dir).repoSummary();
    const lines = summary.split('\n');
    expect(lines[0]).toBe('9 files');
    expect(lines).toContain('src/stats.py — Python, 90 B: Summary statistics helpers.');
    expect(lines).toContain('src/util/strings.ts — TypeScript, 100 B: String helpers for report output.');
    expect(lines).toContain('README.md — Markdown, 33 B: Stats service');
    expect(lines).toContain('package.json — JSON, 66 B: Summary statistics for user data');
    expect(summary).not.toContain('node_modules');
    expect(summary).not.toContain('.lathe');
    const paths = lines.slice(1).map((line) => line.split(' — ')[0]);
    expect(paths).toEqual([...paths].sort());
  });

  it('stays within its bounds on a large repo, keeping the important files and counting the rest', async () => {
    const dir = makeTempDir('lathe-summary-');
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, 'README.md'), '# Big\n');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src', 'main.py'), '"""Entry point."""\n');
    fs.mkdirSync(path.join(dir, 'tests', 'fixtures', 'data'), { recursive: true });
    for (let index = 0; index < 600; index++)
      fs.writeFileSync(path.join(dir, 'tests', 'fixtures', 'data', `case-${index}.json`), '{}\n');
    const summary = await createReadOnlyTools(dir).repoSummary({ maxEntries: 50, maxBytes: 3000 });
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(3000);
    expect(summary.split('\n')[0]).toBe('602 files; the 50 most important are listed, the rest counted per folder');
    expect(summary).toContain('README.md — Markdown');
    expect(summary).toContain('src/main.py — Python, 19 B: Entry point.');
    expect(summary).toMatch(/^tests\/fixtures\/ — \d+ more files \(json \d+\)$/m);
  });
});
