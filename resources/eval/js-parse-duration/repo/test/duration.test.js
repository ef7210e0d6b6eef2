import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatDuration, parseDuration } from '../src/duration.js';

test('hours and seconds', () => {
  assert.equal(parseDuration('2h'), 7_200_000);
  assert.equal(parseDuration('45s'), 45_000);
});

test('minutes', () => {
  assert.equal(parseDuration('1h30m'), 5_400_000);
});

test('not a duration throws', () => {
  assert.throws(() => parseDuration('abc'), TypeError);
});

test('format', () => {
  assert.equal(formatDuration(3_723_000), '1h 2m 3s');
});
