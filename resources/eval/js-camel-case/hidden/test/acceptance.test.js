import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCamelCase } from '../src/case.js';

test('separators at the ends are ignored', () => {
  assert.equal(toCamelCase('__private_value__'), 'privateValue');
  assert.equal(toCamelCase('  spaced  out  '), 'spacedOut');
});

test('digits are kept', () => {
  assert.equal(toCamelCase('level 2 boss'), 'level2Boss');
});

test('no words gives an empty string', () => {
  assert.equal(toCamelCase('-_ -'), '');
  assert.equal(toCamelCase(''), '');
});
