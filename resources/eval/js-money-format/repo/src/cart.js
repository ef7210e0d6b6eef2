const SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };

/** "2 × Pen — $5.00" lines and a total line for a cart of { name, cents, quantity } items. */
export function renderCart(items, currency = 'USD') {
  const format = (cents) => {
    if (!Number.isInteger(cents)) throw new TypeError(`cents must be a whole number, not ${cents}`);
    const sign = cents < 0 ? '-' : '';
    const [whole, fraction] = (Math.abs(cents) / 100).toFixed(2).split('.');
    const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
    const symbol = SYMBOLS[currency] ?? `${currency} `;
    return `${sign}${symbol}${grouped}.${fraction}`;
  };
  const lines = items.map((item) => `${item.quantity} × ${item.name} — ${format(item.cents * item.quantity)}`);
  const total = items.reduce((sum, item) => sum + item.cents * item.quantity, 0);
  return [...lines, `Total: ${format(total)}`].join('\n');
}
