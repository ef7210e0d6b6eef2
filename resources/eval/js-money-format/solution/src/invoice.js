import { formatMoney } from './money.js';

/** The invoice's amount lines: subtotal, tax at `taxPercent`, and total. */
export function invoiceLines(subtotalCents, taxPercent, currency = 'USD') {
  const tax = Math.round((subtotalCents * taxPercent) / 100);
  return [`Subtotal: ${formatMoney(subtotalCents, currency)}`, `Tax (${taxPercent}%): ${formatMoney(tax, currency)}`, `Total: ${formatMoney(subtotalCents + tax, currency)}`];
}
