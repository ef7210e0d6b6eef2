import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse, stringify } from '../src/query.js';

test('parse', () => {
  assert.deepEqual(parse('?a=1&tag=x&tag=y'), { a: '1', tag: ['x', 'y'] });
});

test('stringify simple values', () => {
  assert.equal(stringify({ q: 'lathe', page: 2 }), 'q=lathe&page=2');
});

test('stringify arrays as repeated keys', () => {
  assert.equal(stringify({ tag: ['x', 'y'] }), 'tag=x&tag=y');
});
