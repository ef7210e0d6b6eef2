import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import {
  isRetained,
  markArtifactsRetained,
  newVerifyRunId,
  pruneArtifacts,
  releaseRetainedArtifacts,
} from './artifacts';
import { detectTestCommand } from './detect';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});
function folder(files: Record<string, string>): string {
  const dir = makeTempDir('lathe-detect-');
  dirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

describe('detectTestCommand', () => {
  it('runs a literal `node --test` script directly, and any other npm script through npm', async () => {
    expect(
      await detectTestCommand(folder({ 'package.json': '{"scripts":{"test":"node --test test/"}}' })),
    ).toMatchObject({ argv: ['node', '--test', 'test/'], runner: 'node-test' });
    expect(
      await detectTestCommand(folder({ 'package.json': '{"scripts":{"test":"node --test && eslint ."}}' })),
    ).toMatchObject({ argv: ['npm', 'test', '--silent'], runner: 'npm' });
    expect(await detectTestCommand(folder({ 'package.json': '{"scripts":{"test":"vitest run"}}' }))).toMatchObject({
      runner: 'npm',
    });
  });

  it("skips npm's placeholder script and falls through to pytest with an interpreter that has it", async () => {
    const detected = await detectTestCommand(
      folder({
        'package.json': '{"scripts":{"test":"echo \\"Error: no test specified\\" && exit 1"}}',
        'tests/test_a.py': '',
      }),
    );
    expect(detected).toMatchObject({
      runner: 'pytest',
      argv: ['/usr/bin/python3', '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'],
    });
    expect(detected?.reason).toContain('tests in tests/');
  });

  it('finds pytest by config, then go, cargo and make, and null for nothing', async () => {
    expect((await detectTestCommand(folder({ 'pyproject.toml': '[tool.pytest.ini_options]\n' })))?.runner).toBe(
      'pytest',
    );
    expect((await detectTestCommand(folder({ 'go.mod': 'module x\n' })))?.argv).toEqual(['go', 'test', './...']);
    expect((await detectTestCommand(folder({ 'Cargo.toml': '[package]\n' })))?.argv).toEqual(['cargo', 'test']);
    expect((await detectTestCommand(folder({ Makefile: 'build:\n\tcc x.c\ntest: build\n\t./x\n' })))?.argv).toEqual([
      'make',
      'test',
    ]);
    expect(await detectTestCommand(folder({ Makefile: 'build:\n\tcc x.c\n' }))).toBeNull();
  });

  // Decision 75: a manifest that is there but cannot be read is not a missing one; falling through to
  // the next runner would run another command as the repository's tests.
  it('refuses, naming the file, when package.json exists but cannot be read or parsed, instead of running make test', async () => {
    const dir = folder({ 'package.json/x': '', Makefile: 'test:\n\t./x\n' });
    await expect(detectTestCommand(dir)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { path: path.join(dir, 'package.json'), errno: 'EISDIR' },
    });
    const broken = folder({ 'package.json': '{"scripts": {"test": "jest"', Makefile: 'test:\n\t./x\n' });
    await expect(detectTestCommand(broken)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      message: expect.stringContaining('could not be read as JSON'),
    });
  });

  it('refuses when a pytest manifest, a marker file or a test folder cannot be read, instead of running go test', async () => {
    const pyproject = folder({ 'pyproject.toml/x': '', 'go.mod': 'module x\n' });
    await expect(detectTestCommand(pyproject)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { path: path.join(pyproject, 'pyproject.toml') },
    });

    const marker = folder({ 'go.mod': 'module x\n' });
    const access = fs.promises.access.bind(fs.promises);
    vi.spyOn(fs.promises, 'access').mockImplementation(async (file, mode) =>
      String(file).endsWith('pytest.ini')
        ? Promise.reject(
            Object.assign(new Error(`EACCES: permission denied, access '${String(file)}'`), { code: 'EACCES' }),
          )
        : access(file, mode),
    );
    await expect(detectTestCommand(marker)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { path: path.join(marker, 'pytest.ini'), errno: 'EACCES' },
    });
    vi.restoreAllMocks();

    const tests = folder({ 'tests/test_a.py': '', 'go.mod': 'module x\n' });
    const readdir = fs.promises.readdir.bind(fs.promises);
    vi.spyOn(fs.promises, 'readdir').mockImplementation((async (
      folderPath: fs.PathLike,
      options: { withFileTypes: true },
    ) =>
      String(folderPath).endsWith('tests')
        ? Promise.reject(
            Object.assign(new Error(`EACCES: permission denied, scandir '${String(folderPath)}'`), { code: 'EACCES' }),
          )
        : readdir(folderPath, options)) as typeof fs.promises.readdir);
    await expect(detectTestCommand(tests)).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { path: path.join(tests, 'tests'), errno: 'EACCES' },
    });
  });
});

// docs/seeds.md 4.14: 20 runs or 14 days; retained until released
describe('artifact retention', () => {
  const day = 86_400_000;
  it('keeps the 20 newest runs or anything younger than 14 days, and retained runs until released', async () => {
    const root = folder({});
    const now = Date.UTC(2026, 5, 30);
    const ids: string[] = [];
    // 30 runs, one a day going back: the oldest 10 are past both limits.
    for (let age = 0; age < 30; age++) {
      const id = newVerifyRunId(new Date(now - age * day - 1000));
      ids.push(id);
      fs.mkdirSync(path.join(root, id));
    }
    fs.mkdirSync(path.join(root, 'not-a-run'));
    const stuck = ids[27] as string;
    await markArtifactsRetained(path.join(root, stuck), 'stuck report T3');
    expect(await isRetained(path.join(root, stuck))).toBe(true);
    const deleted = await pruneArtifacts(root, now);
    expect(deleted.sort()).toEqual(
      ids
        .slice(20)
        .filter((id) => id !== stuck)
        .sort(),
    );
    expect(fs.existsSync(path.join(root, 'not-a-run'))).toBe(true);
    await releaseRetainedArtifacts(path.join(root, stuck));
    expect(await pruneArtifacts(root, now)).toEqual([stuck]);
  });

  it('keeps more than 20 runs while they are younger than 14 days', async () => {
    const root = folder({});
    const now = Date.UTC(2026, 5, 30);
    for (let index = 0; index < 25; index++)
      fs.mkdirSync(path.join(root, newVerifyRunId(new Date(now - index * 60_000))));
    expect(await pruneArtifacts(root, now)).toEqual([]);
  });
});
