import assert from 'node:assert/strict';
import { test } from 'node:test';
import { retry } from '../src/retry.js';

test('shouldRetry false stops at once', async () => {
  let calls = 0;
  const fatal = new Error('fatal');
  await assert.rejects(
    retry(async () => {
      calls++;
      throw fatal;
    }, { retries: 5, shouldRetry: (error) => error !== fatal }),
    (error) => error === fatal,
  );
  assert.equal(calls, 1);
});

test('waits delayMs between attempts', async () => {
  const started = Date.now();
  await retry(async (attempt) => {
    if (attempt < 3) throw new Error('again');
    return attempt;
  }, { delayMs: 40 });
  assert.ok(Date.now() - started >= 75, `took ${Date.now() - started} ms`);
});

test('bad retries rejects before any call', async () => {
  let calls = 0;
  await assert.rejects(retry(async () => calls++, { retries: -1 }), RangeError);
  await assert.rejects(retry(async () => calls++, { retries: 1.5 }), RangeError);
  assert.equal(calls, 0);
  assert.equal(await retry(() => 'sync value', { retries: 0 }), 'sync value');
});
