// How the console shows amounts and dates. Amounts are exact decimals in the API (JSON
// numbers, at most 4 places): the console never computes with them, it only writes the digits it
// was given, grouped, with at least two decimals. No rounding, no float arithmetic.

/** `1234.5, 'EUR'` → `1,234.50 EUR` (also from the decimal text `"1234.5"`); null → `—`. */
export function money(amount: number | string | null | undefined, currency?: string | null): string {
  if (amount === null || amount === undefined) return '—';
  const [whole, fraction = ''] = exact(amount).split('.');
  return `${whole}.${fraction.padEnd(2, '0')}${currency ? ` ${currency}` : ''}`;
}

/**
 * A number with the API's own digits, grouped, nothing rounded or padded: `1234.5` → `1,234.5`
 * (counts and quantities, as analytics has them; money() pads amounts to two decimals).
 */
export function exact(value: number | string): string {
  const text = String(value);
  if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
  const negative = text.startsWith('-');
  const [whole, fraction] = (negative ? text.slice(1) : text).split('.');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** An amount as typed: digits with up to 4 decimals, more than zero. Sent to the API as the text itself. */
export const AMOUNT_PATTERN = /^\d{1,15}(\.\d{1,4})?$/;
export const isPositiveAmount = (text: string) => AMOUNT_PATTERN.test(text) && /[1-9]/.test(text);

/** Epoch seconds → the user's local date and time. */
export const when = (epoch: number | null | undefined) => (epoch === null || epoch === undefined ? '—' : new Date(epoch * 1000).toLocaleString());
/** A midnight-UTC epoch (a DATE custom field) → its day YYYY-MM-DD, the same in every time zone. */
export const utcDay = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);
/** Epoch seconds → the user's local date. */
export const day = (epoch: number | null | undefined) => (epoch === null || epoch === undefined ? '—' : new Date(epoch * 1000).toLocaleDateString());

/**
 * A `YYYY-MM-DD` of a date input → epoch seconds of that day's first (or last) second in the
 * user's time zone: the day the table shows with `day()`. The API's `_to` filters are inclusive.
 */
export function epochOfDay(date: string, end = false): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const [y, m, d] = date.split('-').map(Number);
  const start = new Date(y, m - 1, end ? d + 1 : d).getTime() / 1000;
  return String(end ? start - 1 : start);
}
