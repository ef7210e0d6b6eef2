import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunk, difference } from '../src/arrays.js';

test('chunks of equal size', () => {
  assert.deepEqual(chunk([1, 2, 3, 4], 2), [[1, 2], [3, 4]]);
});

test('the last chunk holds the rest', () => {
  assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
});

test('difference keeps order', () => {
  assert.deepEqual(difference([3, 1, 2], [1]), [3, 2]);
});
