import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { errnoOf, isMissing, unreadable, whenErrno, whenMissing } from './fsErrors';

const failure = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('isMissing', () => {
  it('is true for a missing file and for a file standing where a folder should be', () => {
    const missing = (() => {
      try {
        fs.readFileSync(path.join(os.tmpdir(), 'lathe-no-such-file-anywhere'));
      } catch (error) {
        return error;
      }
    })();
    expect(isMissing(missing)).toBe(true);
    expect(isMissing(failure('ENOTDIR'))).toBe(true);
  });

  it('is false for a file that is there but cannot be read, and for anything that is not an fs error', () => {
    for (const code of ['EACCES', 'EPERM', 'EIO', 'EMFILE', 'EISDIR']) expect(isMissing(failure(code))).toBe(false);
    expect(isMissing(new Error('plain'))).toBe(false);
    expect(isMissing(null)).toBe(false);
    expect(isMissing('ENOENT')).toBe(false);
  });

  it('names the path and the errno when a file is unreadable', () => {
    const error = unreadable('src/a.js', failure('EACCES'));
    expect(error.code).toBe('FILE_UNREADABLE');
    expect(error.message).toContain('src/a.js');
    expect(error.data).toEqual({ path: 'src/a.js', errno: 'EACCES' });
  });
});

describe('whenMissing and whenErrno', () => {
  it('answer the fallback for the errors they name and rethrow every other, cause intact', async () => {
    expect(await Promise.reject(failure('ENOENT')).catch(whenMissing(null))).toBeNull();
    expect(await Promise.reject(failure('ENOTDIR')).catch(whenMissing([]))).toEqual([]);
    const denied = failure('EACCES');
    await expect(Promise.reject(denied).catch(whenMissing(null))).rejects.toBe(denied);
    await expect(Promise.reject(new Error('plain')).catch(whenMissing(null))).rejects.toThrow('plain');
    await expect(Promise.reject(denied).catch(whenMissing(null, 'src/a.js'))).rejects.toMatchObject({
      code: 'FILE_UNREADABLE',
      data: { path: 'src/a.js', errno: 'EACCES' },
    });
    expect(await Promise.reject(failure('ENOTEMPTY')).catch(whenErrno(['ENOENT', 'ENOTEMPTY'], 'kept'))).toBe('kept');
    await expect(Promise.reject(failure('EBUSY')).catch(whenErrno(['ENOTEMPTY'], 'kept'))).rejects.toThrow('EBUSY');
  });

  it('read the errno of a Node error only', () => {
    expect(errnoOf(failure('ESRCH'))).toBe('ESRCH');
    expect(errnoOf(Object.assign(new Error('exit'), { code: 1 }))).toBeNull();
    expect(errnoOf(undefined)).toBeNull();
  });
});
