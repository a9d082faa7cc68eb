// custom_fields[] as the JSON columns keep them (accounts, wallets, wallet transactions, vouchers,
// purchases): an array of {key, value}; contacts keep theirs in rows of their own.

// A type, not an interface: Prisma takes it as a JSON value only with an implicit index signature.
export type CustomField = { key: string; value: string | null };

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

/** The custom_fields column read defensively: an array of {key, value}. */
export function customFieldsOf(stored: unknown): CustomField[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((f) =>
    f && typeof f === 'object' && typeof (f as CustomField).key === 'string'
      ? [{ key: (f as CustomField).key, value: typeof (f as CustomField).value === 'string' ? (f as CustomField).value : null }]
      : [],
  );
}
