import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { INTEGRATION_TESTS, SLOW_TESTS } from './testTiers';

const ROOT = path.resolve(import.meta.dirname, '..');
const TEST_FILE = /\.test\.tsx?$/;

function testFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && TEST_FILE.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

describe('test tiers', () => {
  it('lists each integration and slow test once, by a path that exists', () => {
    const listed = [...INTEGRATION_TESTS, ...SLOW_TESTS];
    expect(new Set(listed).size).toBe(listed.length);
    for (const file of listed) expect(fs.existsSync(path.join(ROOT, file)) && TEST_FILE.test(file), file).toBe(true);
  });

  it('keeps out of the unit tier what would leak into the next file sharing its process', () => {
    const listed = new Set<string>([...INTEGRATION_TESTS, ...SLOW_TESTS]);
    const unit = ['electron', 'shared', 'renderer', 'eslint-rules', 'bench', 'scripts', 'test-support']
      .flatMap(testFiles)
      .filter((file) => !listed.has(file));
    expect(unit.length).toBeGreaterThan(50);
    const leaking = unit.filter((file) =>
      /vi\.(mock|doMock|stubEnv|stubGlobal)\(|process\.chdir\(/.test(fs.readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(leaking).toEqual([]);
  });

  it('fails a unit test that starts a process, naming where its file belongs', () => {
    expect(() => execFileSync('git', ['--version'])).toThrow(
      /must not start a process \(child_process\.execFileSync\).*testTiers\.ts/,
    );
  });
});
