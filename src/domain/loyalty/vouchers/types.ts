// Shapes shared by the voucher functions (docs/vouchers.md).
import type { Money } from '../../money';

/** ACTIVATED → USED | CANCELLED, both final. EXPIRED is never stored: it is ACTIVATED past expiration_date. */
export type StoredVoucherState = 'ACTIVATED' | 'USED' | 'CANCELLED';
export type VoucherState = StoredVoucherState | 'EXPIRED';

export interface CustomField {
  key: string;
  value: string | null;
}

/** A voucher as the API reads it (read.ts); amounts are Money, `lifeCycleState` already shows EXPIRED. */
export interface VoucherView {
  id: string;
  contactId: string;
  number: string;
  classification: string;
  lifeCycleState: VoucherState;
  category: string;
  value: Money | null;
  extraAddedValue: Money | null;
  minimumValue: Money | null;
  maximumValue: Money | null;
  currencyCode: string;
  validityPeriod: number;
  validityUot: string;
  expirationDate: Date;
  voucherType: { id: string; name: string };
  purchaseId: string | null;
  usedAt: Date | null;
  usedValue: Money | null;
  usedBy: string | null;
  customFields: CustomField[];
  createdAt: Date;
}

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
