import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isLatheError } from '../../../../shared/errors';
import { meta, writeGgufFile, writeJunkGguf, writeTinyModel, writeTruncatedCopy } from '../../../../test-support/gguf';
import { makeTempDir } from '../../../../test-support/tempRepo';
import { inspectGguf } from './inspectGguf';
import { defaultModelFolders, importModel, scanModelFolders } from './modelLibrary';

const root = makeTempDir('lathe-models-');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
const folder = path.join(root, 'models');
const { modelPath, sizeBytes } = writeTinyModel(path.join(folder, 'publisher', 'tiny'));

describe('GGUF inspection', () => {
  it('reads metadata without loading the model', async () => {
    const entry = await inspectGguf(modelPath);
    expect(entry).toEqual({
      path: modelPath,
      fileName: 'tiny-llama.gguf',
      status: 'ok',
      reason: null,
      sizeBytes,
      name: 'lathe-tiny-llama',
      architecture: 'llama',
      parameters: 139_584,
      quantization: 'F32',
      contextLength: 2048,
      chatTemplate: expect.stringContaining('<|im_start|>'),
    });
  });

  it('rejects a file that starts with "GGUF" but whose fixed header no reader could follow, at once', async () => {
    const write = (name: string, bytes: Buffer) => {
      const file = path.join(root, name);
      fs.writeFileSync(file, bytes);
      return file;
    };
    const fixed = (version: number, tensors: bigint, keys: bigint) => {
      const header = Buffer.alloc(24);
      header.write('GGUF', 0, 'latin1');
      header.writeUInt32LE(version, 4);
      header.writeBigUInt64LE(tensors, 8);
      header.writeBigUInt64LE(keys, 16);
      return header;
    };
    // Found by hand: 12 bytes of "GGUFxxxxxxxx" held node-llama-cpp's reader for minutes and gigabytes.
    expect(await inspectGguf(write('x.gguf', Buffer.from('GGUFxxxxxxxx', 'latin1')))).toMatchObject({
      status: 'rejected',
      reason: 'truncated: the file ends inside its header (12 bytes)',
    });
    expect(await inspectGguf(write('v9.gguf', fixed(0x78787878, 0n, 0n)))).toMatchObject({
      reason: `unsupported GGUF version ${0x78787878}`,
    });
    expect(
      await inspectGguf(write('many.gguf', Buffer.concat([fixed(3, 1n << 40n, 7n), Buffer.alloc(100)]))),
    ).toMatchObject({
      reason: `truncated: the header lists ${1n << 40n} tensor(s) and 7 metadata key(s), more than a 124-byte file can hold`,
    });
  });

  it('rejects junk, truncated and empty files with a reason instead of throwing', async () => {
    const junk = await inspectGguf(writeJunkGguf(root, 'notes.gguf'));
    expect(junk).toMatchObject({ status: 'rejected', reason: 'not a GGUF file (it starts with "this", not "GGUF")' });
    const cut = await inspectGguf(writeTruncatedCopy(modelPath, path.join(root, 'cut.gguf'), 0.5));
    expect(cut.status).toBe('rejected');
    expect(cut.reason).toMatch(/^truncated: the weights need \d+ bytes but the file has \d+/);
    const header = await inspectGguf(writeTruncatedCopy(modelPath, path.join(root, 'header.gguf'), 0.002));
    expect(header).toMatchObject({
      status: 'rejected',
      reason: expect.stringMatching(/^truncated: the file ends inside its header/),
    });
    fs.writeFileSync(path.join(root, 'empty.gguf'), '');
    expect(await inspectGguf(path.join(root, 'empty.gguf'))).toMatchObject({
      status: 'rejected',
      reason: expect.stringContaining('not a GGUF file'),
    });
    expect(await inspectGguf(path.join(root, 'absent.gguf'))).toMatchObject({
      status: 'rejected',
      reason: 'cannot read the file (ENOENT)',
    });
  });

  it('rejects an architecture the bundled llama.cpp does not run', async () => {
    const alien = path.join(root, 'alien.gguf');
    const tensor = {
      name: 'w',
      dims: [4],
      type: 'F32' as const,
      writeData: (sink: (chunk: Uint8Array) => void) => sink(new Uint8Array(16)),
    };
    writeGgufFile(alien, [['general.architecture', meta.str('made-up-arch')]], [tensor]);
    expect(await inspectGguf(alien)).toMatchObject({
      status: 'rejected',
      reason: "architecture 'made-up-arch' is not supported by the bundled llama.cpp",
    });
    expect(await inspectGguf(modelPath, { isArchitectureSupported: () => false })).toMatchObject({
      status: 'rejected',
      reason: "architecture 'llama' is not supported by the bundled llama.cpp",
    });
  });
});

describe('model folders', () => {
  it('finds GGUF files in nested folders, lists rejected ones with reasons and ignores other files', async () => {
    const scanDir = path.join(root, 'scan');
    writeTinyModel(scanDir, 'good.gguf');
    writeJunkGguf(scanDir, 'bad.gguf');
    fs.writeFileSync(path.join(scanDir, 'README.md'), '# models');
    fs.copyFileSync(modelPath, path.join(scanDir, 'big-00002-of-00003.gguf'));
    const entries = await scanModelFolders([scanDir, folder, path.join(root, 'does-not-exist')]);
    expect(entries.map((entry) => [entry.fileName, entry.status])).toEqual([
      ['tiny-llama.gguf', 'ok'],
      ['bad.gguf', 'rejected'],
      ['good.gguf', 'ok'],
    ]);
  });

  it('lists a linked model once', async () => {
    const linkDir = path.join(root, 'links');
    fs.mkdirSync(linkDir, { recursive: true });
    fs.symlinkSync(modelPath, path.join(linkDir, 'alias.gguf'));
    const entries = await scanModelFolders([folder, linkDir]);
    expect(entries).toHaveLength(1);
  });

  it('defaults to <LATHE_HOME>/models, then settings folders, then LATHE_MODELS_DIR', () => {
    const env = { LATHE_HOME: '/data/lathe', LATHE_MODELS_DIR: ['/a', '/b'].join(path.delimiter) };
    expect(defaultModelFolders({ env, settingsFolders: ['/s'] })).toEqual(['/data/lathe/models', '/s', '/a', '/b']);
  });
});

describe('importing a model', () => {
  it('copies a valid GGUF into the folder and refuses to overwrite', async () => {
    const target = path.join(root, 'imported');
    const entry = await importModel(modelPath, { folder: target });
    expect(entry).toMatchObject({ status: 'ok', path: path.join(target, 'tiny-llama.gguf') });
    expect(fs.lstatSync(entry.path).isSymbolicLink()).toBe(false);
    await expect(importModel(modelPath, { folder: target })).rejects.toSatisfy((error: unknown) =>
      isLatheError(error, 'MODEL_EXISTS'),
    );
  });

  it('links instead of copying when asked', async () => {
    const target = path.join(root, 'linked');
    const entry = await importModel(modelPath, { folder: target, mode: 'link' });
    expect(fs.lstatSync(entry.path).isSymbolicLink()).toBe(true);
    expect(entry.status).toBe('ok');
  });

  it('refuses a file that is not a usable GGUF, with its reason, and leaves nothing behind', async () => {
    const target = path.join(root, 'refused');
    const junk = writeJunkGguf(root, 'junk-import.gguf');
    await expect(importModel(junk, { folder: target })).rejects.toSatisfy(
      (error: unknown) => isLatheError(error, 'MODEL_REJECTED') && error.message.includes('not a GGUF file'),
    );
    expect(fs.existsSync(path.join(target, 'junk-import.gguf'))).toBe(false);
  });
});
