import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../src/paginate.js';

test('an exact multiple has no extra page', () => {
  assert.deepEqual(paginate([1, 2, 3, 4], 2, 2), { items: [3, 4], page: 2, totalPages: 2, hasNext: false });
});

test('no items and pages past the end', () => {
  assert.deepEqual(paginate([], 1, 10), { items: [], page: 1, totalPages: 0, hasNext: false });
  assert.deepEqual(paginate([1], 4, 1), { items: [], page: 4, totalPages: 1, hasNext: false });
});

test('perPage must be a positive whole number', () => {
  assert.throws(() => paginate([1], 1, 0), RangeError);
  assert.throws(() => paginate([1], 1, 2.5), RangeError);
});
