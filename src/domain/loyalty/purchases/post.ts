// POST /purchases (spec 2.12, 4.8; docs/loyalty.md "Purchases"): one transaction writes the
// purchase, spends from the wallet what was asked (and what automatic spend allows), credits the
// awards of the joined schemes' offers and moves the tier. Every entry points at the purchase.
import type { PurchaseInput } from './types';
import type { OrgSql } from '../../../db/sql';
import { checkCustomFields } from '../../custom-fields/check';
import { mergeCustomFields } from '../../custom-fields/values';
import { conflict, invalid } from '../../errors';
import { newId } from '../../ids';
import { Money, moneyText } from '../../money';
import { creditWallet } from '../../money/ledger/entries';
import type { MoneyContext } from '../../money/ledger/journal';
import { recordMoneyChanges, type MoneyRecord } from '../../money/ledger/record';
import { validLotsJson, type EligibleLot } from '../../money/ledger/lots';
import type { LockedWallet } from '../../money/ledger/wallet';
import { issueVoucher, type IssuedVoucher } from '../vouchers/issue';
import { planAwards, type AwardPlan, type Line } from './awards';
import { periodYearOf } from '../tiers';
import { purchaseContext, resolvePlace, type Buyer, type Place } from './resolve';
import { spendAsked, spendFromWallet, type SpendInput } from './spend';
import { addUnitsStatement, settleTier, type UnitsRow } from './value-units';
import { nowSeconds } from '../../clock';

export type { PurchaseInput };

export interface PostedPurchase {
  id: string;
  number: string;
  buyer: Buyer;
  place: Place;
  performedOn: Date;
  total: Money;
  spend: { transactionId: string; amount: Money } | null;
  awards: Array<{ transactionId: string; offerId: string; offerName: string; amount: Money; voucher: IssuedVoucher | null }>;
}

export async function postPurchase(money: MoneyContext, input: PurchaseInput, now = nowSeconds()): Promise<PostedPurchase> {
  await checkCustomFields(money.sql, 'PURCHASES', input.custom_fields);
  const performedOn = input.performed_on === undefined ? now : new Date(input.performed_on * 1000);
  const { buyer, wallet, products, offers, settings } = await purchaseContext(money.sql, input, input.products.map((p) => p.product_sku), performedOn);
  const m: MoneyContext = { ...money, settings: async () => settings };
  const { contactId } = buyer;
  if (buyer.accountState === 'TERMINATED') throw conflict('ACCOUNT_TERMINATED', "The contact's primary account is terminated", 'contact_id');
  if (input.currency_code !== undefined && input.currency_code !== buyer.currencyCode) {
    throw invalid('currency_code', `Purchases of this contact are in ${buyer.currencyCode}, the primary account's currency`);
  }
  input.products.forEach((p, i) => {
    if (!p.net_amount.plus(p.tax_amount).eq(p.total_amount)) throw invalid(`products.${i}.total_amount`, 'total_amount must equal net_amount + tax_amount');
  });
  const sum = (pick: (p: PurchaseInput['products'][number]) => Money) => input.products.reduce((s, p) => s.plus(pick(p)), new Money(0));
  const total = sum((p) => p.total_amount);
  const place = await resolvePlace(m.sql, input);
  const asked = await spendAsked(m, input, buyer, total);

  const id = input.id ?? newId();
  const { number, lots } = await insertPurchase(m.sql, { id, input, buyer, place, performedOn, total, net: sum((p) => p.net_amount), tax: sum((p) => p.tax_amount), products, createdBy: m.actor.actorId }, now);
  const base = { contactId, accountId: buyer.accountId, walletId: wallet?.id ?? null, transactionDate: performedOn, createdBy: m.actor.actorId, purchaseId: id };

  const lines: Line[] = input.products.map((p) => ({ total: p.total_amount, product: products.get(p.product_sku) }));
  const spend = wallet ? await spendFromWallet(m, { wallet, lots, lines, performedOn, buyer, place, total, asked, base, now }) : null;
  const plans = planAwards({ offers, lines, total, spent: spend?.amount ?? new Money(0), ...place, performedOn });
  const awards = await creditAwards(m, plans, { purchaseId: id, buyer, wallet, base, now }, (awarded) => ({
    change: { action: 'CREATE', entityType: 'purchase', entityId: id, changes: { reference_number: input.reference_number, total_amount: moneyText(total) } },
    event: { type: 'PURCHASE_POSTED', payload: { purchase_id: id, contact_id: contactId, account_id: buyer.accountId, reference_number: input.reference_number, total_amount: moneyText(total), currency_code: buyer.currencyCode, spend_amount: moneyText(spend?.amount ?? new Money(0)), award_amount: moneyText(awarded.reduce((s, a) => s.plus(a.amount), new Money(0))) } },
  }));
  return { id, number, buyer, place, performedOn, total, spend, awards };
}

interface AwardTarget {
  purchaseId: string;
  buyer: Buyer;
  wallet: LockedWallet | null;
  base: SpendInput['base'];
  now: Date;
}

/**
 * Each award as a credit of the wallet (and a voucher when the offer issues one), with its audit
 * row and AWARD_CUSTOMER event; `purchase` is the purchase's own record. The vouchers come
 * first, so that every record is known when the last credit is written: that statement writes
 * them all (one statement of their own when no credit is written).
 */
async function creditAwards(m: MoneyContext, plans: AwardPlan[], t: AwardTarget, purchase: (awards: PostedPurchase['awards']) => MoneyRecord): Promise<PostedPurchase['awards']> {
  const { purchaseId: id, buyer, wallet, base, now } = t;
  const contactId = buyer.contactId;
  const awards: Array<PostedPurchase['awards'][number] & { plan: AwardPlan }> = [];
  for (const plan of plans) {
    const voucher = plan.offer.voucherTypeId ? await issueVoucher(m.sql, m.actor, { contactId, voucherTypeId: plan.offer.voucherTypeId, purchaseId: id }, now) : null;
    if (!wallet && !voucher) continue;
    awards.push({ transactionId: newId(), offerId: plan.offer.id, offerName: plan.offer.name, amount: wallet ? plan.amount : new Money(0), voucher, plan });
  }
  const records: MoneyRecord[] = [purchase(awards), ...awards.map(({ transactionId, offerId, amount, voucher }) => ({
    change: { action: 'AWARD', entityType: 'wallet_transaction', entityId: transactionId, changes: { purchase_id: id, reward_offer_id: offerId, amount: moneyText(amount) } },
    event: { type: 'AWARD_CUSTOMER' as const, payload: { contact_id: contactId, purchase_id: id, transaction_id: wallet ? transactionId : null, reward_offer_id: offerId, wallet_id: wallet?.id ?? null, amount: moneyText(amount), currency_code: buyer.currencyCode, voucher_id: voucher?.id ?? null } },
  }))];
  const posted = awards.map(({ plan: _plan, ...award }) => award);
  if (!wallet || !awards.length) {
    await recordMoneyChanges(m.sql, m.actor, records);
    return posted;
  }
  for (const [i, { transactionId, plan }] of awards.entries()) {
    await creditWallet(
      m.sql, wallet,
      { transactionId, cause: 'AWARD', idempotencyKey: `award:${id}:${plan.offer.id}`, amount: plan.amount, spendConditionId: plan.offer.spendConditionId, validTo: plan.validTo },
      { ...base, id: transactionId, classification: 'AWARD', amount: plan.amount, description: plan.offer.name, spendConditionId: plan.offer.spendConditionId, expirationDate: plan.validTo, rewardOfferId: plan.offer.id },
      i === awards.length - 1 ? { actor: m.actor, records } : undefined,
    );
  }
  return posted;
}

const INSERT = `WITH p AS (
  INSERT INTO purchases (id, organisation_id, reference_number, contact_id, account_id, wallet_id, classification_id, payment_medium_identifier,
    performed_on, currency_code, net_amount, tax_amount, total_amount, value_units, merchant_unit_id, merchant_tap_id, outlet_unit_id, outlet_tap_id, created_by, custom_fields,
    product_quantity)
  VALUES ($2, $1, $3, $4, $5, $6, $7, $8, $9, $10, $11::numeric, $12::numeric, $13::numeric, $13::numeric, $14, $15, $16, $17, $18, $29::jsonb,
    (SELECT COALESCE(sum(q), 0) FROM unnest($26::numeric[]) q))
  RETURNING id, number
), l AS (
  INSERT INTO purchase_products (id, organisation_id, purchase_id, position, product_id, sku, net_amount, tax_amount, total_amount, quantity)
  SELECT x.id, $1, p.id, x.position, x.product_id, x.sku, x.net, x.tax, x.total, x.quantity
  FROM p, unnest($19::uuid[], $20::int[], $21::uuid[], $22::text[], $23::numeric[], $24::numeric[], $25::numeric[], $26::numeric[])
    AS x(id, position, product_id, sku, net, tax, total, quantity)
), c AS (
  -- The purchase is the contact's latest activity (interaction_status, docs/contacts.md).
  UPDATE contacts SET last_activity_at = GREATEST(last_activity_at, $9::timestamptz) WHERE organisation_id = $1 AND id = $4::uuid RETURNING 1
), u AS (
  ${addUnitsStatement({ account: '$5', units: '$13', performedYear: '$27', currentYear: '$28' })}
)
SELECT p.number::text AS number, u.*, ${validLotsJson({ wallet: '$6', at: '$30' })} AS lots FROM p, u`;

interface NewPurchase {
  id: string;
  input: PurchaseInput;
  buyer: Buyer;
  place: Place;
  performedOn: Date;
  total: Money;
  net: Money;
  tax: Money;
  products: Map<string, { id: string }>;
  createdBy: string;
}

/**
 * The purchase, its lines and its value units in one statement; a reference_number used before
 * is 409 ALREADY_EXISTS (the unique index decides). The statement runs after the wallet's lock
 * and also answers the wallet's lots valid now, which the spend takes from.
 */
async function insertPurchase(sql: OrgSql, p: NewPurchase, now: Date): Promise<{ number: string; lots: EligibleLot[] }> {
  const lines = p.input.products;
  const [row] = await sql.rows<UnitsRow & { number: string; lots: EligibleLot[] }>(INSERT, [
    p.id, p.input.reference_number, p.buyer.contactId, p.buyer.accountId, p.buyer.walletId, p.place.classificationId, p.input.payment_medium_identifier ?? null,
    p.performedOn, p.buyer.currencyCode, moneyText(p.net), moneyText(p.tax), moneyText(p.total),
    p.place.merchantUnitId, p.place.merchantTapId, p.place.outletUnitId, p.place.outletTapId, p.createdBy,
    lines.map(() => newId()), lines.map((_, i) => i), lines.map((l) => p.products.get(l.product_sku)?.id ?? null), lines.map((l) => l.product_sku),
    lines.map((l) => moneyText(l.net_amount)), lines.map((l) => moneyText(l.tax_amount)), lines.map((l) => moneyText(l.total_amount)),
    lines.map((l) => moneyText(l.quantity ?? new Money(1))), periodYearOf(p.performedOn), periodYearOf(now),
    p.input.custom_fields ? JSON.stringify(mergeCustomFields(null, p.input.custom_fields)) : null, now,
  ]);
  await settleTier(sql, p.buyer.accountId, row);
  return { number: row.number, lots: row.lots };
}
