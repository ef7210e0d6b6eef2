import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deepEqual } from '../src/equal.js';

test('nested objects', () => {
  assert.equal(deepEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), true);
  assert.equal(deepEqual({ a: 1 }, { a: 2 }), false);
});

test('null is handled', () => {
  assert.equal(deepEqual(null, null), true);
  assert.equal(deepEqual({ a: null }, { a: {} }), false);
});

test('an array is not an object', () => {
  assert.equal(deepEqual([1], { 0: 1 }), false);
});
