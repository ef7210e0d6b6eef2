import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderCart } from '../src/cart.js';
import { invoiceLines } from '../src/invoice.js';

test('cart lines and total', () => {
  const text = renderCart([{ name: 'Pen', cents: 250, quantity: 2 }, { name: 'Desk', cents: 123_450, quantity: 1 }]);
  assert.equal(text, '2 × Pen — $5.00\n1 × Desk — $1,234.50\nTotal: $1,239.50');
});

test('cart in euros', () => {
  assert.equal(renderCart([{ name: 'Mug', cents: 900, quantity: 1 }], 'EUR'), '1 × Mug — €9.00\nTotal: €9.00');
});

test('invoice lines', () => {
  assert.deepEqual(invoiceLines(10_000, 25, 'SEK'), ['Subtotal: SEK 100.00', 'Tax (25%): SEK 25.00', 'Total: SEK 125.00']);
});
