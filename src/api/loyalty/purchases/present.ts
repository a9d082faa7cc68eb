// Purchases, event records and the activity feed as the API shows them (docs/loyalty.md).
import type { z } from 'zod';
import { customFieldsOf } from '../../../domain/custom-fields/values';
import type { FeedRow } from '../../../domain/loyalty/activity-feed';
import type { PurchaseFacts } from '../../../domain/loyalty/purchases/event-record';
import type { PurchaseRow } from '../../../domain/loyalty/purchases/list';
import type { PostedPurchase } from '../../../domain/loyalty/purchases/post';
import type { IssuedVoucher } from '../../../domain/loyalty/vouchers/issue';
import { amount, epoch } from '../../present';
import type { purchaseItem } from './schemas';

const at = (value: Date | string) => epoch(new Date(value));

export function presentPurchase(p: PurchaseRow): z.input<typeof purchaseItem> {
  return {
    id: p.id, number: p.number, reference_number: p.referenceNumber, life_cycle_state: p.lifeCycleState,
    contact_id: p.contactId, account_id: p.accountId, currency_code: p.currencyCode,
    total_amount: amount(p.totalAmount), returned_amount: amount(p.returnedAmount), performed_on: at(p.performedOn),
    performed_by_unit_id: p.unitId, performed_by_unit_name: p.unitName, classfication_name: p.classificationName, created_on: at(p.createdAt),
    custom_fields: customFieldsOf(p.customFields),
  };
}

export function presentFeedItem(f: FeedRow) {
  return {
    id: f.id, number: f.number, reference_number: f.referenceNumber, code: f.code, state: f.state,
    created_date: at(f.createdAt), activity_type: f.activityType, direction: f.direction, notes: f.notes, type: f.type,
    total_amount: amount(f.totalAmount), currency: f.currency, due_date: null, reward_offer: f.rewardOffer, merchant_name: f.merchantName,
    topup_entity: f.topupEntity, transfer_origin_entity: f.origin, transfer_dest_entity: f.destination, referred_by_account: null,
  };
}

/** A voucher an award issued, with its secret number: shown in this one answer only (docs/vouchers.md). */
export function presentIssued(v: IssuedVoucher) {
  return { id: v.id, number: v.number, secret_number: v.secret };
}

/** The vouchers a purchase's awards issued, for the POST /purchases answer (absent when none). */
export function issuedVouchers(p: PostedPurchase) {
  const issued = p.awards.flatMap((a) => (a.voucher ? [presentIssued(a.voucher)] : []));
  return issued.length ? { vouchers: issued } : {};
}

/** The record of 4.9; `submitted_on` is when the service took the event, `transaction` the purchase. */
export function presentPurchaseEvent(p: PostedPurchase, f: PurchaseFacts, submittedOn: Date) {
  const unit = (u: PurchaseFacts['merchant']) => (u ? { id: u.id, code: u.code, name: u.name } : null);
  return {
    id: p.id,
    type: 'PURCHASE',
    business: f.business,
    submitted_on: epoch(submittedOn),
    submitted_day: submittedOn.toISOString().slice(0, 10),
    contact: f.contact,
    financials: { account: f.account, wallet: f.wallet ? { id: f.wallet.id, code: f.wallet.code, balance: amount(f.wallet.balance) } : null },
    merchant: unit(f.merchant),
    venue: unit(f.venue),
    subsidiary: unit(f.subsidiary),
    location: f.location,
    transaction: {
      id: p.id, number: f.transaction.number, reference_number: f.transaction.referenceNumber, life_cycle_state: f.transaction.lifeCycleState,
      net_amount: amount(f.transaction.net), tax_amount: amount(f.transaction.tax), total_amount: amount(f.transaction.total),
      currency_code: f.transaction.currencyCode, performed_on: epoch(p.performedOn), classification: f.transaction.classification,
    },
    initiating_transaction: null,
    award: {
      total_amount: amount(p.awards.reduce((s, a) => s.plus(a.amount), p.total.times(0))),
      awards: p.awards.map((a) => ({ transaction_id: a.amount.isZero() ? null : a.transactionId, reward_offer: { id: a.offerId, name: a.offerName }, amount: amount(a.amount), voucher_id: a.voucher?.id ?? null })),
    },
    spend: p.spend ? { transaction_id: p.spend.transactionId, amount: amount(p.spend.amount) } : null,
    rewards_sign_up: f.signUps.map((s) => ({ id: s.id, name: s.name, signed_up_on: at(s.signedUpOn) })),
    payment_information: f.payment ? { payment_method_type: f.payment.type, brand: f.payment.brand, funding_type: f.payment.fundingType } : null,
    communication: null,
    order: null,
    ...issuedVouchers(p),
    products: f.products.map((x) => ({
      product_sku: x.sku, product: x.productId ? { id: x.productId, name: x.name } : null,
      net_amount: amount(x.net), tax_amount: amount(x.tax), total_amount: amount(x.total), quantity: amount(x.quantity),
    })),
  };
}
