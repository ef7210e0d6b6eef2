import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileRole, goalOf, messageSuggestsFix, selectCandidate } from './candidates';
import { readHistory } from './gitHistory';

let repo = '';
const run = (args: string[]) =>
  execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_DATE: '2024-03-05T10:00:00Z', GIT_COMMITTER_DATE: '2024-03-05T10:00:00Z' },
  });
function commit(message: string, files: Record<string, string | null>): void {
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(repo, file);
    if (content === null) fs.rmSync(full);
    else {
      fs.mkdirSync(path.dirname(full), { recursive: true });
      fs.writeFileSync(full, content);
    }
  }
  run(['add', '-A']);
  run(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', message]);
}

beforeAll(() => {
  repo = fs.mkdtempSync(path.join(os.tmpdir(), 'candidates-'));
  run(['init', '-q', '-b', 'main']);
  commit('initial', { 'lib/a.js': '1', 'lib/e.js': '1', 'test/a.js': '1', 'package.json': '{}', 'CHANGELOG.md': '' });
  commit('Fix the parser on empty input\n\nThe parser threw on an empty string.', {
    'lib/a.js': '2',
    'test/a.js': '2',
    'CHANGELOG.md': 'x',
  });
  commit('Add a feature', { 'lib/a.js': '3', 'test/a.js': '3' });
  commit('fix: bump a dependency', { 'lib/a.js': '4', 'test/a.js': '4', 'package.json': '{"a":1}' });
  commit('Fix docs only', { 'README.md': 'y', 'test/a.js': '5' });
  commit('fix: four files', { 'lib/a.js': '6', 'lib/b.js': '6', 'lib/c.js': '6', 'lib/d.js': '6', 'test/a.js': '6' });
  commit('fix(core): drop a helper', { 'lib/d.js': null, 'test/a.js': '7', '.github/workflows/ci.yml': 'z' });
  commit('fix: add a helper', { 'lib/f.js': '1', 'test/f.js': '1' });
  run(['checkout', '-q', '-b', 'side', 'HEAD~1']);
  commit('fix on a side branch', { 'lib/e.js': '8', 'test/e.js': '8' });
  run(['checkout', '-q', 'main']);
  run(['-c', 'user.name=t', '-c', 'user.email=t@t', 'merge', '-q', '--no-ff', '-m', 'Merge: fix side', 'side']);
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

describe('selectCandidate on a generated history', () => {
  it('keeps fixes with 1-3 source files and a test, and says why it drops the rest', () => {
    const history = readHistory(path.join(repo, '.git'), 'main');
    const verdicts = history.map((record) => {
      const selection = selectCandidate(record);
      return [record.subject, selection.ok ? 'kept' : selection.reason];
    });
    expect(Object.fromEntries(verdicts)).toEqual({
      'Merge: fix side': 'a merge or root commit',
      'fix: add a helper': 'adds lib/f.js, which materialize.sh cannot remove',
      'fix on a side branch': 'kept',
      'fix(core): drop a helper': 'kept',
      'fix: four files': 'touches 4 source files',
      'Fix docs only': 'touches 0 source files',
      'fix: bump a dependency': 'touches package.json',
      'Add a feature': 'the message does not suggest a fix',
      'Fix the parser on empty input': 'kept',
      initial: 'a merge or root commit',
    });
  });

  it('reverts source and changelog but keeps tests and CI files; gold is the source alone', () => {
    const history = readHistory(path.join(repo, '.git'), 'main');
    const parser = history.find((record) => record.subject.startsWith('Fix the parser'));
    const drop = history.find((record) => record.subject.startsWith('fix(core)'));
    const parserSelection = parser && selectCandidate(parser);
    const dropSelection = drop && selectCandidate(drop);
    expect(parser?.files).toContainEqual({ status: 'M', path: 'CHANGELOG.md' });
    expect(parserSelection?.ok && parserSelection.candidate).toMatchObject({
      revertFiles: ['CHANGELOG.md', 'lib/a.js'],
      goldFiles: ['lib/a.js'],
      testFiles: ['test/a.js'],
    });
    expect(dropSelection?.ok && dropSelection.candidate).toMatchObject({
      revertFiles: ['lib/d.js'],
      goldFiles: ['lib/d.js'],
    });
    expect(drop?.files).toContainEqual({ status: 'D', path: 'lib/d.js' });
    expect(parser?.date).toBe('2024-03-05');
    expect(parser && goalOf(parser)).toBe('Fix the parser on empty input\n\nThe parser threw on an empty string.');
  });

  it('takes a commit a person vetted as a fix whatever its message, and still applies the file rules', () => {
    const history = readHistory(path.join(repo, '.git'), 'main');
    const feature = history.find((record) => record.subject === 'Add a feature');
    const bump = history.find((record) => record.subject === 'fix: bump a dependency');
    expect(feature && selectCandidate(feature, { messageVetted: true })).toMatchObject({ ok: true });
    expect(bump && selectCandidate(bump, { messageVetted: true })).toEqual({
      ok: false,
      reason: 'touches package.json',
    });
  });

  it('limits source files to a pattern when one is given', () => {
    const history = readHistory(path.join(repo, '.git'), 'main');
    const parser = history.find((record) => record.subject.startsWith('Fix the parser'));
    expect(parser && selectCandidate(parser, { sourcePattern: /^src\// })).toEqual({
      ok: false,
      reason: 'a source file outside the source pattern',
    });
  });
});

describe('file roles and fix messages', () => {
  it.each([
    ['tests/command.test.js', 'test'],
    ['index.test-d.ts', 'test'],
    ['flag_test.go', 'test'],
    ['pyflakes/test/test_api.py', 'test'],
    ['tests/lib.rs', 'test'],
    ['src/lib.rs', 'source'],
    ['lib/parse.js', 'source'],
    ['index.d.ts', 'source'],
    ['docs/changelog.md', 'docs'],
    ['CHANGES.txt', 'docs'],
    ['.github/workflows/ci.yml', 'ci'],
    ['package.json', 'other'],
    ['Cargo.toml', 'other'],
    ['go.mod', 'other'],
  ])('%s is %s', (file, role) => expect(fileRole(file)).toBe(role));

  it('reads fix words, not chores or features', () => {
    expect(messageSuggestsFix('[Fix] `stringify`: encode dots', '')).toBe(true);
    expect(messageSuggestsFix('Handle empty input', 'This was broken since 2.0.')).toBe(true);
    expect(messageSuggestsFix('chore: fix lint', '')).toBe(false);
    expect(messageSuggestsFix('Add prefix option', '')).toBe(false);
    expect(messageSuggestsFix('Prefixes are supported', '')).toBe(false);
  });
});
