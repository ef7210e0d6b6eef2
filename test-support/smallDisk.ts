import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './tempRepo';

/** A small disk of its own (a size-capped tmpfs) that a test can fill to the last byte and free again. */
export interface SmallDisk {
  dir: string;
  /** Fills what is left of the disk (a file `filler`), as another program would. */
  fill(): void;
  /** Removes what `fill` (or the test hook LATHE_TEST_FILL_DISK_AT_EVENT) wrote. */
  free(): void;
  unmount(): void;
}

/** Whether this process may mount a tmpfs (root, as in CI); the disk-full tests that need one skip otherwise. */
export function canMountSmallDisk(): boolean {
  try {
    mountSmallDisk(1024 * 1024).unmount();
    return true;
  } catch {
    return false;
  }
}

export function mountSmallDisk(bytes: number): SmallDisk {
  const dir = makeTempDir('lathe-small-disk-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const fillers = [path.join(dir, 'filler'), path.join(dir, 'lathe-test-filler')];
  return {
    dir,
    fill() {
      const handle = fs.openSync(fillers[0] as string, 'a');
      try {
        for (const size of [1 << 20, 1 << 12]) {
          const chunk = Buffer.alloc(size, 0x2e);
          try {
            for (;;) fs.writeSync(handle, chunk);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
          }
        }
      } finally {
        fs.closeSync(handle);
      }
    },
    free() {
      for (const filler of fillers) fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
