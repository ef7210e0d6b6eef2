import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readConfig } from '../src/config.js';

function tempFile(text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-test-'));
  const file = path.join(dir, 'build.json');
  fs.writeFileSync(file, text);
  return file;
}

test('merges the file over the defaults', (_, done) => {
  readConfig(tempFile('{"minify": true}'), (error, config) => {
    assert.equal(error, null);
    assert.deepEqual(config, { outDir: 'dist', minify: true, targets: ['node20'] });
    done();
  });
});

test('invalid JSON is a SyntaxError', (_, done) => {
  readConfig(tempFile('{nope'), (error) => {
    assert.ok(error instanceof SyntaxError);
    done();
  });
});
