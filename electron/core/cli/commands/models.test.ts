import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeJunkGguf, writeTinyModel } from '../../../../test-support/gguf';
import { makeTempDir } from '../../../../test-support/tempRepo';
import type { CliIo } from '../command';
import { modelsCommand, WINDOW_NOTE } from './models';

const dir = makeTempDir('lathe-cli-models-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const { modelPath } = writeTinyModel(dir);
const junkPath = writeJunkGguf(dir);

function capture(env: NodeJS.ProcessEnv = {}): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (line) => out.push(line), err: (line) => err.push(line), env, cwd: dir }, out, err };
}

describe('lathe models', () => {
  it('prints an aligned table with one model and one rejection with its reason', async () => {
    const { io, out } = capture();
    expect(await modelsCommand.run(['--dir', dir], io)).toBe(0);
    const [header, ...rows] = out;
    expect(header).toMatch(/^NAME\s+ARCH\s+PARAMS\s+QUANT\s+SIZE\s+CONTEXT\s+STATUS$/);
    const junkRow = rows.find((row) => row.startsWith('junk.gguf'));
    const modelRow = rows.find((row) => row.startsWith('tiny-llama.gguf'));
    expect(modelRow).toMatch(/^tiny-llama\.gguf\s+llama\s+140K\s+F32\s+557 KiB\s+2048\s+ok$/);
    expect(junkRow).toMatch(/rejected: not a GGUF file/);
    expect(header?.indexOf('STATUS')).toBe(modelRow?.indexOf('ok'));
    expect(out.at(-2)).toBe(`1 usable, 1 rejected — in ${dir}`);
    expect(out.at(-1)).toBe(WINDOW_NOTE);
  });

  it('prints the documented JSON entries with --json', async () => {
    const { io, out } = capture();
    expect(await modelsCommand.run(['--json', '--dir', '.'], io)).toBe(0);
    const entries = JSON.parse(out.join('\n')) as Array<Record<string, unknown>>;
    expect(entries.map((entry) => [entry.path, entry.status])).toEqual([
      [junkPath, 'rejected'],
      [modelPath, 'ok'],
    ]);
    expect(Object.keys(entries[1] ?? {})).toEqual([
      'path',
      'fileName',
      'status',
      'reason',
      'sizeBytes',
      'name',
      'architecture',
      'parameters',
      'quantization',
      'contextLength',
      'chatTemplate',
    ]);
  });

  it('accepts --dir more than once and scans LATHE_MODELS_DIR by default', async () => {
    const other = path.join(dir, 'other');
    writeTinyModel(other, 'second.gguf');
    const repeated = capture();
    await modelsCommand.run(['--dir', path.join(dir, 'other'), '--dir', dir, '--json'], repeated.io);
    expect((JSON.parse(repeated.out.join('\n')) as unknown[]).length).toBe(3);
    const byEnv = capture({ LATHE_HOME: path.join(dir, 'home'), LATHE_MODELS_DIR: other });
    await modelsCommand.run([], byEnv.io);
    expect(byEnv.out.some((line) => line.startsWith('second.gguf'))).toBe(true);
  });

  it('says so when a folder has no GGUF files, and refuses unknown flags', async () => {
    const empty = makeTempDir('lathe-empty-');
    const { io, out } = capture({ LATHE_HOME: path.join(dir, 'home') });
    expect(await modelsCommand.run(['--dir', empty], io)).toBe(0);
    expect(out[0]).toBe(`No GGUF files in ${empty}.`);
    expect(out).toContain(`Looked in: ${empty} (the --dir folders).`);
    await expect(modelsCommand.run(['--bogus'], io)).rejects.toThrow(/Unknown option/);
    fs.rmSync(empty, { recursive: true, force: true });
  });

  // Issue 29: an empty model library gave no hint of what to do next.
  it('with an empty library, says where it looked, how to add a GGUF, and that the demo runs on a replay', async () => {
    const home = makeTempDir('lathe-empty-home-');
    const settingsFolder = path.join(home, 'from-settings');
    fs.writeFileSync(path.join(home, 'settings.json'), JSON.stringify({ modelFolders: [settingsFolder] }));
    const { io, out } = capture({ LATHE_HOME: home });
    expect(await modelsCommand.run([], io)).toBe(0);
    const library = path.join(home, 'models');
    expect(out[0]).toBe(`No GGUF files in ${library}, ${settingsFolder}.`);
    const text = out.join('\n');
    expect(text).toContain(
      `Looked in: ${library}, ${settingsFolder} (the library, the model folders in the app's settings, then LATHE_MODELS_DIR).`,
    );
    expect(text).toContain(`copy a .gguf file into ${library}`);
    expect(text).toContain('LATHE_MODELS_DIR=DIR');
    expect(text).toContain('lathe models --dir DIR');
    expect(text).toContain('lathe run --model llama:PATH.gguf');
    expect(text).toContain('`lathe demo` runs the bundled example on a labelled replay transcript');
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('gives the same hint when every file is rejected', async () => {
    const junkOnly = makeTempDir('lathe-junk-only-');
    writeJunkGguf(junkOnly);
    const { io, out } = capture({ LATHE_HOME: path.join(dir, 'home') });
    expect(await modelsCommand.run(['--dir', junkOnly], io)).toBe(0);
    expect(out).toContain(`0 usable, 1 rejected — in ${junkOnly}`);
    expect(out).toContain('To add a model:');
    fs.rmSync(junkOnly, { recursive: true, force: true });
  });
});
