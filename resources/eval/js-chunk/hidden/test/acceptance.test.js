import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chunk } from '../src/arrays.js';

test('a size larger than the array gives one chunk', () => {
  assert.deepEqual(chunk(['a', 'b'], 5), [['a', 'b']]);
  assert.deepEqual(chunk([], 3), []);
});

test('the input is not modified', () => {
  const items = [1, 2, 3];
  chunk(items, 2);
  assert.deepEqual(items, [1, 2, 3]);
  assert.deepEqual(chunk(items, 2), [[1, 2], [3]]);
});

test('a bad size throws RangeError', () => {
  assert.throws(() => chunk([1], 0), RangeError);
  assert.throws(() => chunk([1], 1.5), RangeError);
});
