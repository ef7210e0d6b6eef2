import fs from 'node:fs';

/**
 * Temp file + rename; `durable` (the default) also flushes the content to the disk before the rename.
 * A write that fails (a full disk) leaves the old file and no temp file.
 */
export function writeFileAtomic(file: string, content: string | Buffer, options: { durable?: boolean } = {}): void {
  const temp = `${file}.${process.pid}.tmp`;
  const handle = fs.openSync(temp, 'w');
  try {
    try {
      fs.writeFileSync(handle, content);
      if (options.durable !== false) fs.fsyncSync(handle);
    } finally {
      fs.closeSync(handle);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
