import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../src/emitter.js';

test('on and emit', () => {
  const seen = [];
  const emitter = new Emitter().on('save', (name) => seen.push(name));
  assert.equal(emitter.emit('save', 'a.txt'), true);
  assert.deepEqual(seen, ['a.txt']);
});

test('once runs a single time', () => {
  const seen = [];
  const emitter = new Emitter();
  emitter.once('save', (name) => seen.push(name));
  emitter.emit('save', 'a.txt');
  emitter.emit('save', 'b.txt');
  assert.deepEqual(seen, ['a.txt']);
  assert.equal(emitter.listenerCount('save'), 0);
});
