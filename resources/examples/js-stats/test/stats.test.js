import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mean, median } from '../src/stats.js';

test('mean of a list', () => {
  assert.equal(mean([1, 2, 3, 4]), 2.5);
});

test('mean of an empty list throws', () => {
  assert.throws(() => mean([]), RangeError);
});

test('median is the middle value of the sorted list', () => {
  assert.equal(median([7, 1, 3]), 3);
  assert.equal(median([10, 1, 4, 2]), 3);
});
