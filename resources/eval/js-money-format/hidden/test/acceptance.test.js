import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatMoney } from '../src/money.js';
import { renderCart } from '../src/cart.js';

test('formatMoney symbols and grouping', () => {
  assert.equal(formatMoney(123_456_789), '$1,234,567.89');
  assert.equal(formatMoney(5, 'GBP'), '£0.05');
  assert.equal(formatMoney(-1050, 'EUR'), '-€10.50');
  assert.equal(formatMoney(100, 'SEK'), 'SEK 1.00');
});

test('formatMoney refuses fractions of a cent', () => {
  assert.throws(() => formatMoney(1.5), TypeError);
});

test('the cart still formats refunds', () => {
  assert.equal(renderCart([{ name: 'Refund', cents: -500, quantity: 1 }], 'GBP'), '1 × Refund — -£5.00\nTotal: -£5.00');
});
