import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepEqual } from '../src/equal.js';

test('null against values', () => {
  assert.equal(deepEqual(null, {}), false);
  assert.equal(deepEqual([], null), false);
  assert.equal(deepEqual(null, 0), false);
});

test('key order does not matter, missing keys do', () => {
  assert.equal(deepEqual({ x: 1, y: [2, 3] }, { y: [2, 3], x: 1 }), true);
  assert.equal(deepEqual({ x: 1, y: undefined }, { x: 1, z: undefined }), false);
  assert.equal(deepEqual([1, 2], [2, 1]), false);
});

test('NaN equals NaN', () => {
  assert.equal(deepEqual({ v: NaN }, { v: NaN }), true);
});
