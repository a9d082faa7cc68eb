// The event record of POST /events for a PURCHASE (spec 4.9; docs/loyalty.md "Event record"):
// what the purchase did, built after it was written, in the same transaction. The descriptive
// blocks come from one statement; the money blocks from what postPurchase reports.
import type { OrgSql } from '../../../db/sql';
import type { PostedPurchase } from './post';

export interface PurchaseFacts {
  business: { id: string; name: string };
  contact: { id: string; code: string | null; name: string | null };
  account: { id: string; number: string };
  wallet: { id: string; code: string; balance: string } | null;
  merchant: Unit | null;
  venue: Unit | null;
  subsidiary: Unit | null;
  location: Record<string, unknown> | null;
  transaction: { number: string; referenceNumber: string; lifeCycleState: string; net: string; tax: string; total: string; currencyCode: string; classification: { id: string; name: string } | null };
  signUps: Array<{ id: string; name: string; signedUpOn: string }>;
  payment: { type: string; brand: string | null; fundingType: string | null } | null;
  products: Array<{ sku: string; productId: string | null; name: string | null; net: string; tax: string; total: string; quantity: string }>;
}

type Unit = { id: string; code: string; name: string; type: string };

const unit = (alias: string) => `CASE WHEN ${alias}.id IS NULL THEN NULL ELSE json_build_object('id', ${alias}.id, 'code', ${alias}.code, 'name', ${alias}.name, 'type', ${alias}.type) END`;

const FACTS = `SELECT json_build_object('id', org.id, 'name', org.name) AS business,
  json_build_object('id', c.id, 'code', c.code, 'name', NULLIF(concat_ws(' ', c.first_name, c.last_name, c.company_name), '')) AS contact,
  json_build_object('id', a.id, 'number', a.number) AS account,
  CASE WHEN w.id IS NULL THEN NULL ELSE json_build_object('id', w.id, 'code', w.code, 'balance', w.balance::text) END AS wallet,
  ${unit('mu')} AS merchant, ${unit('ou')} AS venue,
  (SELECT ${unit('su')} FROM network_units su WHERE su.organisation_id = $1 AND su.id = COALESCE(mu.parent_id, ou.parent_id) AND su.type = 'SUBSIDIARY') AS subsidiary,
  (SELECT json_build_object('name', l.name, 'address_line_1', l.address_line_1, 'address_line_2', l.address_line_2, 'state_province_county', l.state_province_county,
     'town_city', l.town_city, 'postal_code', l.postal_code, 'country_code', l.country_code, 'lat', l.lat, 'lon', l.lon)
   FROM network_locations l WHERE l.organisation_id = $1 AND l.unit_id = COALESCE(ou.id, mu.id) ORDER BY l.position LIMIT 1) AS location,
  json_build_object('number', p.number::text, 'referenceNumber', p.reference_number, 'lifeCycleState', p.life_cycle_state, 'net', p.net_amount::text,
    'tax', p.tax_amount::text, 'total', p.total_amount::text, 'currencyCode', p.currency_code,
    'classification', CASE WHEN pc.id IS NULL THEN NULL ELSE json_build_object('id', pc.id, 'name', pc.name) END) AS transaction,
  COALESCE((SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'signedUpOn', r.signed_up_on) ORDER BY r.signed_up_on)
     FROM account_reward_schemes r JOIN reward_schemes s ON s.id = r.scheme_id
     WHERE r.organisation_id = $1 AND r.account_id = a.id AND r.ended_on IS NULL), '[]'::json) AS "signUps",
  (SELECT json_build_object('type', m.type, 'brand', m.brand, 'fundingType', m.funding_type) FROM payment_methods m
     WHERE m.organisation_id = $1 AND m.contact_id = c.id AND m.deleted_at IS NULL AND p.payment_medium_identifier IS NOT NULL
       AND p.payment_medium_identifier IN (m.fingerprint, m.last4, m.masked_number, m.iban) LIMIT 1) AS payment,
  COALESCE((SELECT json_agg(json_build_object('sku', x.sku, 'productId', x.product_id, 'name', pr.name, 'net', x.net_amount::text, 'tax', x.tax_amount::text,
     'total', x.total_amount::text, 'quantity', x.quantity::text) ORDER BY x.position)
     FROM purchase_products x LEFT JOIN products pr ON pr.id = x.product_id WHERE x.organisation_id = $1 AND x.purchase_id = p.id), '[]'::json) AS products
FROM purchases p
JOIN organisations org ON org.id = p.organisation_id
JOIN contacts c ON c.organisation_id = p.organisation_id AND c.id = p.contact_id
JOIN accounts a ON a.organisation_id = p.organisation_id AND a.id = p.account_id
LEFT JOIN wallets w ON w.organisation_id = p.organisation_id AND w.id = p.wallet_id
LEFT JOIN network_units mu ON mu.organisation_id = p.organisation_id AND mu.id = p.merchant_unit_id
LEFT JOIN network_units ou ON ou.organisation_id = p.organisation_id AND ou.id = p.outlet_unit_id
LEFT JOIN purchase_classifications pc ON pc.organisation_id = p.organisation_id AND pc.id = p.classification_id
WHERE p.organisation_id = $1 AND p.id = $2::uuid`;

export async function purchaseFacts(sql: OrgSql, posted: PostedPurchase): Promise<PurchaseFacts> {
  const [row] = await sql.rows<PurchaseFacts>(FACTS, [posted.id]);
  return row;
}
