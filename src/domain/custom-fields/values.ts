// custom_fields[] as the JSON columns keep them (accounts, wallets, wallet transactions, vouchers,
// purchases): an array of {key, value}; contacts keep theirs in rows of their own.

// A type, not an interface: Prisma takes it as a JSON value only with an implicit index signature.
// The value is text, or for a DATE the epoch seconds of its day at 00:00 UTC (dates.ts).
export type CustomField = { key: string; value: string | number | null };

/** The stored custom fields with `added` merged in: a key given again takes the new value, new keys are appended. */
export function mergeCustomFields(stored: unknown, added: readonly CustomField[] | null | undefined): CustomField[] {
  const out = customFieldsOf(stored);
  for (const field of added ?? []) {
    const at = out.findIndex((f) => f.key === field.key);
    if (at >= 0) out[at] = { key: field.key, value: field.value };
    else out.push({ key: field.key, value: field.value });
  }
  return out;
}

/** The custom_fields column read defensively: an array of {key, value}, answered as stored. */
export function customFieldsOf(stored: unknown): CustomField[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((f) =>
    f && typeof f === 'object' && typeof (f as CustomField).key === 'string' ? [{ key: (f as CustomField).key, value: storedValue((f as CustomField).value) }] : [],
  );
}

/** A stored value as answered: text, a DATE's epoch (an integer), or null for anything else. */
function storedValue(value: unknown): string | number | null {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}
