import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paginate } from '../src/paginate.js';

const letters = ['a', 'b', 'c', 'd', 'e'];

test('the first page', () => {
  assert.deepEqual(paginate(letters, 1, 2), { items: ['a', 'b'], page: 1, totalPages: 3, hasNext: true });
});

test('the last, shorter page', () => {
  assert.deepEqual(paginate(letters, 3, 2), { items: ['e'], page: 3, totalPages: 3, hasNext: false });
});

test('bad arguments throw', () => {
  assert.throws(() => paginate(letters, 0, 2), RangeError);
});
