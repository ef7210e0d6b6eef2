import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { ensureExcluded } from './excludes';

let dir: string | null = null;
afterEach(() => {
  vi.restoreAllMocks();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function commonDir(exclude?: string): string {
  dir = makeTempDir();
  if (exclude !== undefined) {
    fs.mkdirSync(path.join(dir, 'info'));
    fs.writeFileSync(path.join(dir, 'info', 'exclude'), exclude);
  }
  return dir;
}

describe("ensureExcluded: the user's exclude file is kept, or Lathe stops", () => {
  it("creates the file when there is none and keeps the user's lines when there is one", async () => {
    const fresh = commonDir();
    await ensureExcluded(fresh, ['/.lathe/']);
    expect(fs.readFileSync(path.join(fresh, 'info', 'exclude'), 'utf8')).toContain('/.lathe/');
    const own = commonDir('secrets.env\n');
    await ensureExcluded(own, ['/.lathe/']);
    expect(fs.readFileSync(path.join(own, 'info', 'exclude'), 'utf8')).toMatch(/^secrets\.env\n[\s\S]*\/\.lathe\//);
  });

  // A folder where the file should be gives EISDIR, which even root cannot read.
  it('an exclude that cannot be read is FILE_UNREADABLE, not an empty one', async () => {
    const root = commonDir();
    fs.mkdirSync(path.join(root, 'info', 'exclude'), { recursive: true });
    await expect(ensureExcluded(root, ['/.lathe/'])).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
    expect(fs.readdirSync(path.join(root, 'info'))).toEqual(['exclude']);
  });

  it("an exclude file the OS refuses to read (EACCES) is left as it was, not replaced by Lathe's block", async () => {
    const root = commonDir('secrets.env\n');
    const file = path.join(root, 'info', 'exclude');
    const readFile = fs.promises.readFile;
    vi.spyOn(fs.promises, 'readFile').mockImplementation((async (target: fs.PathLike, options?: unknown) => {
      if (target === file)
        throw Object.assign(new Error(`EACCES: permission denied, open '${file}'`), { code: 'EACCES' });
      return readFile(target, options as BufferEncoding);
    }) as typeof fs.promises.readFile);
    await expect(ensureExcluded(root, ['/.lathe/'])).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { errno: 'EACCES' },
    });
    vi.restoreAllMocks();
    expect(fs.readFileSync(file, 'utf8')).toBe('secrets.env\n');
  });
});
