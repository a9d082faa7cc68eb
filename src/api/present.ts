/** Response helpers shared by resource groups: dates as epoch seconds, exact amounts as numbers. */
import { Money } from '../domain/money';

export function epoch(date: Date): number;
export function epoch(date: Date | null | undefined): number | null;
export function epoch(date: Date | null | undefined): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

/**
 * JSON has only numbers (API-CONVENTIONS "Amounts"): an exact amount leaves as the number its
 * decimal text reads as. Accepts Money, NUMERIC text from pg, or the string form kept in JSON columns.
 */
export function amount(value: Money | string): number;
export function amount(value: Money | string | null | undefined): number | null;
export function amount(value: Money | string | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value.toString());
}

/**
 * A figure in the organisation's alternative currency (points): times the settings' rate,
 * rounded half-even to 4 places (docs/money.md); null while there is no alternative currency.
 */
export function alternativeAmount(rate: Money | null, value: Money | string): number | null {
  return rate === null ? null : amount(new Money(value).times(rate).toDecimalPlaces(4, Money.ROUND_HALF_EVEN));
}
