import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_NAME, MANIFEST_NAME, ROOT, buildCli, ensureCli, staleReason } from './cliBuild.mjs';

interface Manifest {
  chunks: string[];
  inputs: { file: string; mtimeMs: number; size: number }[];
}

// Inside the repository, so the bundle's package imports resolve from its node_modules as in out/cli.
const scratch = path.join(ROOT, '.cache', `cli-build-test-${process.pid}`);
const outDir = path.join(scratch, 'cli');
const readManifest = (): Manifest => JSON.parse(fs.readFileSync(path.join(outDir, MANIFEST_NAME), 'utf8')) as Manifest;
const writeManifest = (manifest: Manifest) =>
  fs.writeFileSync(path.join(outDir, MANIFEST_NAME), JSON.stringify(manifest));

describe('the built CLI', () => {
  beforeAll(async () => {
    fs.rmSync(scratch, { recursive: true, force: true });
    await buildCli({ outDir });
  }, 120_000);
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('is a bundle that runs, with a manifest of the sources that went into it', () => {
    const manifest = readManifest();
    const files = manifest.inputs.map((input) => input.file);
    expect(files).toEqual(
      expect.arrayContaining([
        'electron/core/cli/main.ts',
        'electron/core/cli/commands/run.ts',
        'shared/errors.ts',
        'scripts/cliBuild.mjs',
      ]),
    );
    expect(files.some((file) => file.includes('node_modules'))).toBe(false);
    expect(staleReason(ROOT, outDir)).toBeNull();
    const help = spawnSync(process.execPath, [path.join(outDir, BUNDLE_NAME), '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: lathe <command>');
  });

  it('keeps the model runtime out of the entry, so `lathe --help` never loads it', () => {
    const entry = fs.readFileSync(path.join(outDir, BUNDLE_NAME), 'utf8');
    expect(entry).not.toMatch(/from ["']node-llama-cpp["']/);
    // Beside the entry: the core finds prompts/ and resources/ two folders up from its own code.
    expect(readManifest().chunks.every((chunk) => path.dirname(chunk) === '.')).toBe(true);
    const lazy = readManifest().chunks.map((chunk) => fs.readFileSync(path.join(outDir, chunk), 'utf8'));
    expect(lazy.some((code) => /from ["']node-llama-cpp["']/.test(code))).toBe(true);
  });

  it('is stale when an input changed, was removed, or a piece of the build is missing', () => {
    const original = readManifest();
    const probe = path.join(scratch, 'probe.ts');
    fs.writeFileSync(probe, 'export const x = 1;\n');
    const stamp = fs.statSync(probe);
    const withProbe = {
      ...original,
      inputs: [...original.inputs, { file: path.relative(ROOT, probe), mtimeMs: stamp.mtimeMs, size: stamp.size }],
    };
    writeManifest(withProbe);
    expect(staleReason(ROOT, outDir)).toBeNull();

    fs.writeFileSync(probe, 'export const x = 22;\n');
    expect(staleReason(ROOT, outDir)).toBe(`${path.relative(ROOT, probe)} changed`);
    // An edit that keeps the size and moves the mtime backwards (a checkout of an older commit) counts too.
    fs.writeFileSync(probe, 'export const x = 2;\n');
    fs.utimesSync(probe, new Date(stamp.mtimeMs - 60_000), new Date(stamp.mtimeMs - 60_000));
    expect(staleReason(ROOT, outDir)).toBe(`${path.relative(ROOT, probe)} changed`);
    fs.rmSync(probe);
    expect(staleReason(ROOT, outDir)).toBe(`${path.relative(ROOT, probe)} was removed`);

    writeManifest(original);
    expect(staleReason(ROOT, outDir)).toBeNull();
    const chunk = path.join(outDir, original.chunks[0] ?? '');
    const code = fs.readFileSync(chunk);
    fs.rmSync(chunk);
    expect(staleReason(ROOT, outDir)).toBe(`${original.chunks[0]} is missing`);
    fs.writeFileSync(chunk, code);
    fs.appendFileSync(path.join(outDir, BUNDLE_NAME), '\n');
    expect(staleReason(ROOT, outDir)).toBe('the bundle is missing or was changed');
    fs.rmSync(path.join(outDir, MANIFEST_NAME));
    expect(staleReason(ROOT, outDir)).toBe('no built CLI yet');
  });

  it('rebuilds a stale bundle before running it, and says so; a current one is used as it is', async () => {
    const logged: string[] = [];
    fs.rmSync(path.join(outDir, MANIFEST_NAME), { force: true });
    await ensureCli({ outDir, log: (line) => logged.push(line) });
    expect(logged).toEqual(['lathe: building the CLI (no built CLI yet)…']);
    expect(staleReason(ROOT, outDir)).toBeNull();
    await ensureCli({ outDir, log: (line) => logged.push(line) });
    expect(logged).toHaveLength(1);
  }, 120_000);
});
