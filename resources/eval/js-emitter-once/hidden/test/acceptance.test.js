import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Emitter } from '../src/emitter.js';

test('off removes a once-handler before it runs', () => {
  let calls = 0;
  const handler = () => calls++;
  const emitter = new Emitter();
  assert.equal(emitter.once('tick', handler), emitter);
  emitter.off('tick', handler);
  assert.equal(emitter.emit('tick'), false);
  assert.equal(calls, 0);
});

test('order is kept across on and once', () => {
  const order = [];
  const emitter = new Emitter()
    .on('go', () => order.push('first'))
    .once('go', (value) => order.push(`once:${value}`))
    .on('go', () => order.push('last'));
  emitter.emit('go', 1);
  emitter.emit('go', 2);
  assert.deepEqual(order, ['first', 'once:1', 'last', 'first', 'last']);
});

test('a once-handler may emit the same event again', () => {
  const seen = [];
  const emitter = new Emitter();
  emitter.once('ping', (n) => {
    seen.push(n);
    emitter.emit('ping', n + 1);
  });
  emitter.emit('ping', 1);
  assert.deepEqual(seen, [1]);
});
