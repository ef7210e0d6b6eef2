import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { setAsideNotice } from '../../../shared/schemas/settings';
import { SettingsStore } from './settingsStore';

let dir: string | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const setAside = (dataDir: string) =>
  fs.readdirSync(dataDir).filter((name) => name.startsWith('settings.json.invalid-'));

describe('the settings store: missing is defaults, corrupted is set aside, unreadable is an error', () => {
  it('reads defaults when there is no file, and sets a corrupted one aside', () => {
    dir = makeTempDir();
    const store = new SettingsStore(dir);
    expect(store.read()).toMatchObject({
      theme: 'system',
      shellAllowlist: ['pytest', 'npm test', 'git', 'pip', 'npm', 'make'],
    });
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.writeFileSync(path.join(dir, 'settings.json'), '{ not json');
    expect(store.read()).toMatchObject({ theme: 'system' });
    expect(setAside(dir)).toHaveLength(1);
  });

  it('remembers the file it set aside and why, until settings are saved anew', () => {
    dir = makeTempDir();
    const file = path.join(dir, 'settings.json');
    const store = new SettingsStore(dir);
    expect(store.setAside).toBeNull();
    fs.writeFileSync(file, JSON.stringify({ threads: 'many' }));
    expect(store.read()).toMatchObject({ threads: null });
    const [kept] = setAside(dir);
    expect(store.setAside).toEqual({
      file,
      movedTo: path.join(dir, kept ?? ''),
      reason: expect.stringMatching(/^threads: /),
    });
    expect(fs.readFileSync(path.join(dir, kept ?? ''), 'utf8')).toBe('{"threads":"many"}');
    expect(store.readWithNotice()).toMatchObject({ threads: null, setAside: { movedTo: path.join(dir, kept ?? '') } });
    expect(setAsideNotice(store.setAside ?? { file, movedTo: null, reason: '' })).toBe(
      `${file} is not valid settings (${store.setAside?.reason}); it was set aside as ${path.join(dir, kept ?? '')} and the default settings are in use`,
    );
    store.update({ theme: 'dark' });
    expect(store.setAside).toBeNull();
    expect(store.readWithNotice()).toMatchObject({ theme: 'dark', setAside: null });
  });

  it('says the defaults stand in even when the corrupted file cannot be moved aside', () => {
    dir = makeTempDir();
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, '{ not json');
    vi.spyOn(fs, 'renameSync').mockImplementation(() => {
      throw Object.assign(new Error(`EACCES: permission denied, rename '${file}'`), { code: 'EACCES' });
    });
    const store = new SettingsStore(dir);
    expect(store.read()).toMatchObject({ theme: 'system' });
    expect(store.setAside).toEqual({ file, movedTo: null, reason: expect.stringMatching(/^not JSON: /) });
  });

  // A folder where the file should be gives EISDIR, which even root cannot read.
  it('a settings file that cannot be read is FILE_UNREADABLE and stays where it is', () => {
    dir = makeTempDir();
    fs.mkdirSync(path.join(dir, 'settings.json'));
    const store = new SettingsStore(dir);
    expect(() => store.read()).toThrow(expect.objectContaining({ code: 'FILE_UNREADABLE' }));
    expect(setAside(dir)).toEqual([]);
    expect(fs.statSync(path.join(dir, 'settings.json')).isDirectory()).toBe(true);
  });

  it('settings the OS refuses to read (EACCES) are neither set aside nor written over with defaults', () => {
    dir = makeTempDir();
    const file = path.join(dir, 'settings.json');
    const mine = `${JSON.stringify({ shellAllowlist: ['pytest'], theme: 'dark' })}\n`;
    fs.writeFileSync(file, mine);
    const readFileSync = fs.readFileSync;
    vi.spyOn(fs, 'readFileSync').mockImplementation(((target: fs.PathOrFileDescriptor, options?: unknown) => {
      if (target === file)
        throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES' });
      return readFileSync(target, options as BufferEncoding);
    }) as typeof fs.readFileSync);
    const store = new SettingsStore(dir);
    expect(() => store.read()).toThrow(expect.objectContaining({ code: 'FILE_UNREADABLE' }));
    expect(() => store.update({ theme: 'light' })).toThrow(expect.objectContaining({ code: 'FILE_UNREADABLE' }));
    vi.restoreAllMocks();
    expect(setAside(dir)).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(mine);
  });
});
