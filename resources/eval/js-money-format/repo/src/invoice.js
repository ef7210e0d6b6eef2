const CURRENCY_SYMBOLS = { USD: '$', EUR: '€', GBP: '£' };

function money(cents, currency) {
  if (!Number.isInteger(cents)) throw new TypeError(`cents must be a whole number, not ${cents}`);
  const negative = cents < 0;
  const fixed = (Math.abs(cents) / 100).toFixed(2);
  const [units, decimals] = fixed.split('.');
  const withCommas = units.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const prefix = CURRENCY_SYMBOLS[currency] ?? `${currency} `;
  return `${negative ? '-' : ''}${prefix}${withCommas}.${decimals}`;
}

/** The invoice's amount lines: subtotal, tax at `taxPercent`, and total. */
export function invoiceLines(subtotalCents, taxPercent, currency = 'USD') {
  const tax = Math.round((subtotalCents * taxPercent) / 100);
  return [`Subtotal: ${money(subtotalCents, currency)}`, `Tax (${taxPercent}%): ${money(tax, currency)}`, `Total: ${money(subtotalCents + tax, currency)}`];
}
