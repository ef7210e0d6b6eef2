import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseDuration } from '../src/duration.js';

test('every unit together', () => {
  assert.equal(parseDuration('1h2m3s4ms'), 3_723_004);
  assert.equal(parseDuration('250ms'), 250);
});

test('bad text throws a TypeError naming it', () => {
  for (const bad of ['', '10x', '5m1h', '1.5h', '1h 30m', '3m3m']) {
    assert.throws(() => parseDuration(bad), (error) => error instanceof TypeError && error.message.includes(`${bad}`));
  }
});

test('minutes alone', () => {
  assert.equal(parseDuration('15m'), 900_000);
});
