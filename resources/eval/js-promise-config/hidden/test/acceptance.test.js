import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { loadConfig, readConfig } from '../src/config.js';

function tempFile(text) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-acceptance-'));
  const file = path.join(dir, 'build.json');
  fs.writeFileSync(file, text);
  return file;
}

test('loadConfig resolves with the merged config', async () => {
  assert.deepEqual(await loadConfig(tempFile('{"outDir": "build", "extra": 1}')), { outDir: 'build', minify: false, targets: ['node20'], extra: 1 });
});

test('loadConfig rejections', async () => {
  const missing = path.join(os.tmpdir(), 'config-acceptance-missing', 'none.json');
  await assert.rejects(loadConfig(missing), (error) => error.code === 'ENOENT');
  const list = tempFile('[1, 2]');
  await assert.rejects(loadConfig(list), (error) => error instanceof SyntaxError && error.message.includes(list));
});

test('readConfig still calls back, through loadConfig', async () => {
  const file = tempFile('{"minify": true}');
  const config = await new Promise((resolve, reject) => readConfig(file, (error, value) => (error ? reject(error) : resolve(value))));
  assert.equal(config.minify, true);
  const source = fs.readFileSync(new URL('../src/config.js', import.meta.url), 'utf8');
  assert.match(source, /node:fs\/promises|fs\.promises|promises as/);
});
