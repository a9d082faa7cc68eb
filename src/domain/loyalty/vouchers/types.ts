// Shapes shared by the voucher functions (docs/vouchers.md).
import type { CustomField } from '../../custom-fields/values';
import type { Money } from '../../money';

/** ACTIVATED → USED | CANCELLED, both final. EXPIRED is never stored: it is ACTIVATED past expiration_date. */
export type StoredVoucherState = 'ACTIVATED' | 'USED' | 'CANCELLED';
export type VoucherState = StoredVoucherState | 'EXPIRED';

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
