import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse, stringify } from '../src/query.js';

test('values are encoded', () => {
  assert.equal(stringify({ 'a b': 'c&d=e', emoji: 'ü' }), 'a%20b=c%26d%3De&emoji=%C3%BC');
});

test('undefined and null are left out', () => {
  assert.equal(stringify({ a: undefined, b: null, c: false, d: ['1', null, undefined, '2'] }), 'c=false&d=1&d=2');
  assert.equal(stringify({}), '');
});

test('round trip', () => {
  const params = { q: 'tools & dies', tag: ['a/b', 'c?'], lang: 'en' };
  assert.deepEqual(parse(stringify(params)), params);
});
