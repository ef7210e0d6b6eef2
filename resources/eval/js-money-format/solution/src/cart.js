import { formatMoney } from './money.js';

/** "2 × Pen — $5.00" lines and a total line for a cart of { name, cents, quantity } items. */
export function renderCart(items, currency = 'USD') {
  const lines = items.map((item) => `${item.quantity} × ${item.name} — ${formatMoney(item.cents * item.quantity, currency)}`);
  const total = items.reduce((sum, item) => sum + item.cents * item.quantity, 0);
  return [...lines, `Total: ${formatMoney(total, currency)}`].join('\n');
}
