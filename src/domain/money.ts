// Money inside the service is one exact decimal type; JSON numbers exist only at the edge
// (src/api/present.ts `amount`). Stored as NUMERIC(19,4), and as its string form inside JSON columns.
import { Prisma } from '../db/client';

export type Money = Prisma.Decimal;

export const Money = Prisma.Decimal;

/** Amounts kept inside JSON columns are strings, so no binary float ever holds them. */
export function moneyText(value: Money): string {
  return value.toFixed();
}
