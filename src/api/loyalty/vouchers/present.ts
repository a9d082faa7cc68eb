// Voucher responses (spec 2.11): amounts as JSON numbers, times as epoch seconds.
import type { z } from 'zod';
import type { VoucherView } from '../../../domain/loyalty/vouchers/types';
import { amount, epoch } from '../../present';
import type { voucherItem } from './schemas';

export function presentVoucher(v: VoucherView): z.input<typeof voucherItem> {
  return {
    id: v.id,
    contact_id: v.contactId,
    number: v.number,
    classification: v.classification,
    life_cycle_state: v.lifeCycleState,
    category: v.category,
    value: amount(v.value),
    extra_added_value: amount(v.extraAddedValue),
    minimum_value: amount(v.minimumValue),
    maximum_value: amount(v.maximumValue),
    currency_code: v.currencyCode,
    validity_period: v.validityPeriod,
    validity_UOT: v.validityUot,
    expiration_date: epoch(v.expirationDate),
    voucher_type: v.voucherType,
    purchase_id: v.purchaseId,
    used_on: epoch(v.usedAt),
    used_value: amount(v.usedValue),
    used_by: v.usedBy === null ? null : { id: v.usedBy },
    custom_fields: v.customFields,
    created_on: epoch(v.createdAt),
  };
}
