/** Response helpers shared by resource groups: dates as epoch seconds, decimals as numbers. */
export function epoch(date: Date): number;
export function epoch(date: Date | null | undefined): number | null;
export function epoch(date: Date | null | undefined): number | null {
  return date ? Math.floor(date.getTime() / 1000) : null;
}

/** Exact decimals are stored as NUMERIC; JSON has only numbers, so they leave as numbers. */
export function amount(value: { toString(): string } | null | undefined): number | null {
  return value === null || value === undefined ? null : Number(value.toString());
}
