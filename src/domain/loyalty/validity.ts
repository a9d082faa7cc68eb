// A validity of `period` units of time after a moment: how long a voucher lives (docs/vouchers.md
// "Expiry") and how long an awarded credit stays spendable (docs/loyalty.md "Awards"). DAY and WEEK are fixed lengths; MONTH and YEAR are calendar
// arithmetic in UTC, the day of month clamped to the target month's last day (31 January + 1
// MONTH = 28 or 29 February; 29 February + 1 YEAR = 28 February).

export const VALIDITY_UNITS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
export type ValidityUnit = (typeof VALIDITY_UNITS)[number];

const DAY_MS = 86_400_000;
/** The largest instant the API can write as epoch seconds (9999-12-31T23:59:59Z). */
const LAST = 253402300799_000;

/** The unit as stored on a type, read leniently (`month`, `MONTHS`); null when it is none of the four. */
export function validityUnit(value: string): ValidityUnit | null {
  const unit = value.trim().toUpperCase().replace(/S$/, '');
  return (VALIDITY_UNITS as readonly string[]).includes(unit) ? (unit as ValidityUnit) : null;
}

/** The expiration instant; null when the result is not a date the API can show. */
export function expirationOf(issuedAt: Date, period: number, unit: ValidityUnit): Date | null {
  let at: number;
  switch (unit) {
    case 'DAY':
      at = issuedAt.getTime() + period * DAY_MS;
      break;
    case 'WEEK':
      at = issuedAt.getTime() + period * 7 * DAY_MS;
      break;
    case 'MONTH':
      at = addMonths(issuedAt, period);
      break;
    case 'YEAR':
      at = addMonths(issuedAt, period * 12);
      break;
  }
  return Number.isFinite(at) && at >= 0 && at <= LAST ? new Date(at) : null;
}

function addMonths(d: Date, months: number): number {
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  // Day 0 of the month after the target month is the target month's last day.
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
}
