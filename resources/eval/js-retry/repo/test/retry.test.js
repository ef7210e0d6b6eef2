import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retry } from '../src/retry.js';

test('resolves with the first success', async () => {
  const attempts = [];
  const value = await retry(async (attempt) => {
    attempts.push(attempt);
    if (attempt < 3) throw new Error(`fail ${attempt}`);
    return 'ok';
  });
  assert.equal(value, 'ok');
  assert.deepEqual(attempts, [1, 2, 3]);
});

test('rejects with the last error', async () => {
  await assert.rejects(
    retry(async (attempt) => {
      throw new Error(`fail ${attempt}`);
    }, { retries: 1 }),
    /fail 2/,
  );
});
