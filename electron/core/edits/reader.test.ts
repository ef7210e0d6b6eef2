import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../../test-support/tempRepo';
import { createMemoryReader, createWorkspaceReader } from './reader';

const RESPONSE = 'res.send = function send(body) {\n  return this.end(body);\n};\n';

describe('listFiles', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

  it('lists the repository as the agents see it (gitignore honoured), once per reader', async () => {
    const dir = makeTempDir('lathe-edits-list-');
    dirs.push(dir);
    for (const [file, content] of Object.entries({
      '.gitignore': 'build/\n',
      'lib/response.js': RESPONSE,
      'build/response.js': RESPONSE,
    })) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), content);
    }
    const reader = createWorkspaceReader(dir);
    expect(await reader.listFiles?.()).toEqual(['.gitignore', 'lib/response.js']);
    fs.writeFileSync(path.join(dir, 'late.js'), 'x\n');
    expect(await reader.listFiles?.()).toEqual(['.gitignore', 'lib/response.js']);
  });
});

describe('the memory reader', () => {
  it('lists its own files, sorted', async () => {
    expect(await createMemoryReader({ 'b.txt': 'b', 'a/c.txt': 'c' }).listFiles?.()).toEqual(['a/c.txt', 'b.txt']);
  });
});
