import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createStore } from '../src/todos.js';
import * as todos from '../src/todos.js';

test('stores are independent', () => {
  const home = createStore();
  const work = createStore();
  home.add('water plants');
  assert.deepEqual(work.list(), []);
  assert.deepEqual(work.add('review'), { id: 1, title: 'review', done: false });
  assert.equal(home.list().length, 1);
});

test('a store has every operation', () => {
  const store = createStore();
  const item = store.add('x');
  assert.equal(store.toggle(item.id), true);
  assert.deepEqual(store.list(), [{ id: 1, title: 'x', done: true }]);
  assert.equal(store.remove(item.id), true);
  store.add('y');
  store.clear();
  assert.deepEqual(store.list(), []);
  assert.equal(store.add('z').id, 1);
});

test('the module functions do not touch other stores', () => {
  const store = createStore();
  store.add('mine');
  todos.clear();
  todos.add('shared');
  assert.deepEqual(store.list().map((item) => item.title), ['mine']);
  const copy = store.list();
  copy[0].title = 'changed';
  assert.equal(store.list()[0].title, 'mine');
});
