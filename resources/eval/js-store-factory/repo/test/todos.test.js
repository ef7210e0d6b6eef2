import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { add, clear, list, remove, toggle } from '../src/todos.js';

beforeEach(() => clear());

test('add and list', () => {
  add(' Buy oil ');
  assert.deepEqual(list(), [{ id: 1, title: 'Buy oil', done: false }]);
});

test('toggle and remove', () => {
  const first = add('a');
  const second = add('b');
  assert.equal(toggle(first.id), true);
  assert.equal(remove(second.id), true);
  assert.equal(toggle(99), false);
  assert.deepEqual(list(), [{ id: 1, title: 'a', done: true }]);
});

test('an empty title is refused', () => {
  assert.throws(() => add('  '), TypeError);
});
