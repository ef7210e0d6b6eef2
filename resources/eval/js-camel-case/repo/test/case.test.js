import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCamelCase, toKebabCase } from '../src/case.js';

test('simple words', () => {
  assert.equal(toCamelCase('hello world'), 'helloWorld');
});

test('mixed separators and capitals', () => {
  assert.equal(toCamelCase('Hello-world_FOO bar'), 'helloWorldFooBar');
});

test('repeated separators count as one', () => {
  assert.equal(toCamelCase('user--id'), 'userId');
});

test('kebab case', () => {
  assert.equal(toKebabCase('userId value'), 'user-id-value');
});
