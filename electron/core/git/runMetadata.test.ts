import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { latheGitDir, readRunMetadata, writeRunMetadata, type RunMetadata } from './runMetadata';

let dir: string | null = null;
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const metadata: RunMetadata = {
  run_id: 'r1',
  mode: 'worktree',
  started_at_ms: 1,
  base_commit: 'b',
  original_branch: 'main',
  linked_dependencies: ['node_modules'],
  protected_paths: [],
};
const fileOf = (commonDir: string) => path.join(latheGitDir(commonDir), 'runs', 'r1.json');

describe('run metadata is read as there, absent, or an error — never an unreadable file taken for absent', () => {
  it('reads what was written, and null when there is none or a killed write cut it short', async () => {
    dir = makeTempDir();
    expect(await readRunMetadata(dir, 'r1')).toBeNull();
    await writeRunMetadata(dir, metadata);
    expect(await readRunMetadata(dir, 'r1')).toEqual(metadata);
    fs.writeFileSync(fileOf(dir), '{"run_id": "r1", "mode": "work');
    expect(await readRunMetadata(dir, 'r1')).toBeNull();
  });

  it('a metadata file that exists but cannot be read is FILE_UNREADABLE, so a step commit does not go on without its linked-folder guard', async () => {
    dir = makeTempDir();
    // A folder where the file should be: EISDIR, which even root cannot read (unlike a chmod 000 file).
    fs.mkdirSync(fileOf(dir), { recursive: true });
    await expect(readRunMetadata(dir, 'r1')).rejects.toMatchObject({ code: 'FILE_UNREADABLE' });
  });
});
