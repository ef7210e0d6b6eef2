import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_ROOT } from '../../../test-support/exampleRepo';
import { writeTinyModel } from '../../../test-support/gguf';
import { makeTempDir } from '../../../test-support/tempRepo';
import { defaultProbes, electronProbe, findPackageDir, testRunnerWorks } from './probes';

const dir = makeTempDir('lathe-doctor-probes-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(relative: string, content: string, mode?: number): string {
  const file = path.join(dir, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content, { mode });
  return file;
}

describe('doctor probes on this machine', () => {
  const probes = defaultProbes(APP_ROOT);

  it('loads the prebuilt llama.cpp without building, lists the platform packages, and estimates a model', async () => {
    const llama = await probes.loadLlama();
    expect(llama).toMatchObject({ ok: true, buildType: 'prebuilt' });
    expect(probes.llamaPackages()).toContain(`linux-${process.arch}`);
    const { modelPath } = writeTinyModel(dir);
    const need = await probes.estimateModelMemory(modelPath, 512);
    expect(need).toBeGreaterThan(fs.statSync(modelPath).size);
    expect(await probes.estimateModelMemory(path.join(dir, 'missing.gguf'), 512)).toBeNull();
    const [entry] = await probes.scanModels([dir]);
    expect(entry).toMatchObject({ fileName: 'tiny-llama.gguf', status: 'ok' });
  });

  it('finds the Electron binary only where path.txt names a downloaded file', () => {
    const app = path.join(dir, 'app');
    write('app/node_modules/electron/package.json', '{"version": "45.4.1"}');
    expect(electronProbe(app)).toEqual({ runningVersion: null, packageVersion: '45.4.1', binaryPath: null });
    write('app/node_modules/electron/path.txt', 'electron');
    expect(electronProbe(app).binaryPath).toBeNull();
    const binary = write('app/node_modules/electron/dist/electron', '#!/bin/sh\n', 0o755);
    expect(electronProbe(app).binaryPath).toBe(binary);
    expect(electronProbe(path.join(dir, 'elsewhere')).packageVersion).toBeNull();
    expect(findPackageDir(path.join(app, 'deep', 'er'), 'electron')).toBe(path.join(app, 'node_modules', 'electron'));
  });

  it('tells whether a test runner can start: pytest importable, program on PATH', async () => {
    expect(await testRunnerWorks({ argv: ['node', '--test'], runner: 'node-test', reason: '' }, dir)).toMatchObject({
      ok: true,
      detail: expect.stringContaining('node found at'),
    });
    expect(await testRunnerWorks({ argv: ['no-such-runner-xyz'], runner: 'make', reason: '' }, dir)).toEqual({
      ok: false,
      detail: 'no-such-runner-xyz is not on PATH',
    });
    const python = await testRunnerWorks(
      { argv: ['/usr/bin/python3', '-m', 'pytest'], runner: 'pytest', reason: '' },
      dir,
    );
    expect(python).toMatchObject({ ok: true, detail: expect.stringMatching(/^pytest \d+\.\d+/) });
    const noPytest = write('bin/python-without-pytest', '#!/bin/sh\nexit 1\n', 0o755);
    expect(await testRunnerWorks({ argv: [noPytest, '-m', 'pytest'], runner: 'pytest', reason: '' }, dir)).toEqual({
      ok: false,
      detail: `${noPytest} cannot import pytest`,
    });
  });
});
