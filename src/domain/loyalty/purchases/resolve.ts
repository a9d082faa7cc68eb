// What a purchase names, resolved inside the organisation (docs/loyalty.md "Purchases"): the
// contact (by id, code or a contact identification medium), its primary account and wallet, the
// merchant and outlet taps, the classification and the products by SKU.
import type { OrgSql } from '../../../db/sql';
import { findContactId } from '../../contacts/lookup';
import { contactStatementParams } from '../../contacts/read-statement';
import { invalid, notFound } from '../../errors';
import { isId, normaliseId } from '../../ids';
import { SETTINGS_ROW, settingsOf, type Settings, type SettingsRow } from '../../money/settings';
import { lockedWallet, lockedWalletSelect, type LockedWallet, type LockedWalletRow } from '../../money/ledger/wallet';
import { OFFERS_OF_ACCOUNT, type Offer, type ProductRef } from './awards';

export interface Ref {
  id?: string;
  code?: string;
}

// A medium is the contact's code, loyalty identifier, a phone number, or a card's fingerprint
// (what a till can compute without holding the card number). Anonymised contacts have none.
const BY_CIM = `SELECT id FROM contacts WHERE organisation_id = $1 AND NOT is_anonymized AND (code = $2 OR loyalty_identifier = $2)
UNION SELECT p.contact_id FROM contact_phones p JOIN contacts c ON c.id = p.contact_id AND NOT c.is_anonymized
  WHERE p.organisation_id = $1 AND p.number = $2
UNION SELECT m.contact_id FROM payment_methods m JOIN contacts c ON c.id = m.contact_id AND NOT c.is_anonymized
  WHERE m.organisation_id = $1 AND m.type = 'CARD' AND m.deleted_at IS NULL AND m.fingerprint = $2
LIMIT 2`;

export interface ContactInput {
  contact_id?: string;
  cim?: string;
}

/** The contact of `contact_id` (id or code) or `cim`; exactly one of them must be given. */
export async function resolveContact(sql: OrgSql, input: ContactInput): Promise<string> {
  assertOneContactRef(input);
  if (input.contact_id !== undefined) return findContactId(sql, input.contact_id, 'contact_id');
  return contactByCim(sql, input.cim!);
}

function assertOneContactRef(input: ContactInput): void {
  if ((input.contact_id === undefined) === (input.cim === undefined)) {
    throw invalid(input.contact_id === undefined ? 'contact_id' : 'cim', 'Give contact_id or cim, not both');
  }
}

async function contactByCim(sql: OrgSql, cim: string): Promise<string> {
  const rows = await sql.rows<{ id: string }>(BY_CIM, [cim]);
  if (rows.length > 1) throw invalid('cim', 'The identification medium matches more than one contact');
  if (!rows.length) throw notFound('Contact', 'cim');
  return rows[0].id;
}

export interface Buyer {
  contactId: string;
  accountId: string;
  accountState: string;
  currencyCode: string;
  /** The account's first wallet in its currency that is not cancelled. */
  walletId: string | null;
  spendingBlocked: boolean;
  autoSpend: { enabled: boolean; preference: string | null; minimumBalance: string | null; fromAmount: string | null };
}

export interface PurchaseContext {
  buyer: Buyer;
  /** The buyer's wallet, locked by the context statement itself (null: the account has none). */
  wallet: LockedWallet | null;
  /** The catalogue's products by SKU; an SKU the catalogue does not know stays unlinked (docs/loyalty.md). */
  products: Map<string, ProductRef>;
  offers: Offer[];
  /** The organisation's settings, read by the same statement. */
  settings: Settings;
}

// The contact (by id or code, as findContactId), its primary account (purchases, awards and
// tiers belong to it: spec rule 3) with its wallet, locked (ledger/wallet.ts), and reward
// settings, the purchase's products by SKU and the offers that may award it: one round trip.
// Only the wallet row is read as of the lock; what the lock protects (lots, limit totals) is
// read by the statements after it.
const CONTEXT = `SELECT c.id AS "contactId", a.id AS "accountId", a.life_cycle_state AS "accountState", a.currency_code AS "currencyCode",
  lw.id AS "walletId", CASE WHEN lw.id IS NULL THEN NULL ELSE row_to_json(lw) END AS wallet,
  COALESCE(r.spending_blocked, false) AS "spendingBlocked",
  json_build_object('enabled', COALESCE(r.auto_spend_enabled, false), 'preference', r.auto_spend_preference,
    'minimumBalance', r.auto_spend_minimum_balance::text, 'fromAmount', r.auto_spend_from_amount::text) AS "autoSpend",
  COALESCE((SELECT json_agg(json_build_object('sku', p.sku, 'id', p.id, 'typeId', p.product_type_id, 'familyId', p.product_family_id))
    FROM products p WHERE p.organisation_id = $1 AND p.sku = ANY($4::text[])), '[]'::json) AS products,
  ${OFFERS_OF_ACCOUNT} AS offers,
  (SELECT row_to_json(s) FROM (${SETTINGS_ROW}) s) AS settings
FROM (SELECT id FROM contacts WHERE organisation_id = $1 AND (id = $2::uuid OR code = $5::text) ORDER BY (id = $2::uuid) DESC NULLS LAST LIMIT 1) c
LEFT JOIN accounts a ON a.organisation_id = $1 AND a.contact_id = c.id AND a.is_primary
LEFT JOIN account_rewards r ON r.account_id = a.id AND r.organisation_id = a.organisation_id
LEFT JOIN LATERAL (${lockedWalletSelect(`w.account_id = a.id AND w.currency_code = a.currency_code AND w.life_cycle_state <> 'CANCELLED'`, 'ORDER BY w.created_at, w.id LIMIT 1')}) lw ON true`;

type ContextRow = Omit<Buyer, 'accountId'> & {
  accountId: string | null; wallet: LockedWalletRow | null; products: Array<ProductRef & { sku: string }>; offers: Offer[]; settings: SettingsRow | null;
};

/** The buyer named by `contact_id` or `cim` with what its purchase needs, its wallet locked (one statement, two for a cim). */
export async function purchaseContext(sql: OrgSql, input: ContactInput, skus: string[], performedOn: Date): Promise<PurchaseContext> {
  assertOneContactRef(input);
  const attribute = input.cim !== undefined ? 'cim' : 'contact_id';
  const [id, code] = input.cim !== undefined ? [await contactByCim(sql, input.cim), null] : contactStatementParams(input.contact_id!);
  const [row] = await sql.rows<ContextRow>(CONTEXT, [id, performedOn, [...new Set(skus)], code]);
  if (!row) throw notFound('Contact', attribute);
  const { products, offers, accountId, settings, wallet, ...rest } = row;
  if (accountId === null) throw notFound('Primary account of the contact', attribute);
  const buyer = { ...rest, accountId };
  return { buyer, wallet: wallet && lockedWallet(wallet), offers, settings: settingsOf(settings), products: new Map(products.map((p) => [p.sku, { id: p.id, typeId: p.typeId, familyId: p.familyId }])) };
}

export interface Place {
  merchantUnitId: string | null;
  merchantTapId: string | null;
  outletUnitId: string | null;
  outletTapId: string | null;
  classificationId: string | null;
}

// Each tap by id or code, with its unit and the unit's parent; the classification by id or code.
const PLACE = `SELECT
  (SELECT json_build_object('tapId', t.id, 'unitId', t.unit_id, 'parentId', u.parent_id) FROM network_taps t
     JOIN network_units u ON u.id = t.unit_id WHERE t.organisation_id = $1 AND (t.id = $2::uuid OR t.code = $3) LIMIT 1) AS merchant,
  (SELECT json_build_object('tapId', t.id, 'unitId', t.unit_id, 'parentId', u.parent_id) FROM network_taps t
     JOIN network_units u ON u.id = t.unit_id WHERE t.organisation_id = $1 AND (t.id = $4::uuid OR t.code = $5) LIMIT 1) AS outlet,
  (SELECT id FROM purchase_classifications WHERE organisation_id = $1 AND (id = $6::uuid OR code = $7) LIMIT 1) AS classification`;

type TapRow = { tapId: string; unitId: string; parentId: string | null } | null;

/** Where the purchase happened. Without a merchant tap, the merchant is the outlet's parent unit. */
export async function resolvePlace(sql: OrgSql, input: { merchant_tap?: Ref; outlet_tap?: Ref; classification?: Ref }): Promise<Place> {
  const { merchant_tap: m, outlet_tap: o, classification: c } = input;
  if (!m && !o && !c) return { merchantUnitId: null, merchantTapId: null, outletUnitId: null, outletTapId: null, classificationId: null };
  const [row] = await sql.rows<{ merchant: TapRow; outlet: TapRow; classification: string | null }>(PLACE, [
    ...refParams(m), ...refParams(o), ...refParams(c),
  ]);
  if (m && !row.merchant) throw notFound('Tap', m.id !== undefined ? 'merchant_tap.id' : 'merchant_tap.code');
  if (o && !row.outlet) throw notFound('Tap', o.id !== undefined ? 'outlet_tap.id' : 'outlet_tap.code');
  if (c && !row.classification) throw notFound('Purchase classification', c.id !== undefined ? 'classification.id' : 'classification.code');
  return {
    merchantUnitId: row.merchant?.unitId ?? row.outlet?.parentId ?? null,
    merchantTapId: row.merchant?.tapId ?? null,
    outletUnitId: row.outlet?.unitId ?? null,
    outletTapId: row.outlet?.tapId ?? null,
    classificationId: row.classification,
  };
}

/** An id that is not a GUID matches nothing (rather than failing the cast); a code matches codes only. */
function refParams(ref: Ref | undefined): [string | null, string | null] {
  if (!ref) return [null, null];
  if (ref.id !== undefined) return [isId(ref.id) ? normaliseId(ref.id) : null, null];
  return [null, ref.code ?? null];
}

