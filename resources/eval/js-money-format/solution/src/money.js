const SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };

/** "$1,234.50" for 123450 cents; other currencies as "SEK 12.00". */
export function formatMoney(cents, currency = 'USD') {
  if (!Number.isInteger(cents)) throw new TypeError(`cents must be a whole number, not ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const [whole, fraction] = (Math.abs(cents) / 100).toFixed(2).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const symbol = SYMBOLS[currency] ?? `${currency} `;
  return `${sign}${symbol}${grouped}.${fraction}`;
}
