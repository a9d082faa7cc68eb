// POST /contact_profiles (spec 4.1; docs/analysis.md): up to PROFILE_CAP contacts chosen by ids,
// by codes, or by the filters of GET /contacts, each as the contact document GET /contacts/{id}
// reads (CONTACT_DOCUMENT) with its accounts and first wallets, its default payment method and
// the reward schemes of its primary account. One statement whatever the selector.
import type { z } from 'zod';
import type { profilesBody } from '../../api/analysis/schemas';
import type { OrgSql } from '../../db/sql';
import { fromJson, type ContactDocument, type ContactJson } from '../contacts/read';
import { CONTACT_DOCUMENT } from '../contacts/read-statement';
import { contactFilterCondition } from '../contacts/search';
import { invalid, notFound } from '../errors';
import { SqlParams } from '../../db/sql-params';
import { PROFILE_CAP } from './limits';

export { PROFILE_CAP };

export type ProfileSelector = z.output<typeof profilesBody>;

export interface ProfileAccount {
  id: string;
  number: string;
  name: string | null;
  isPrimary: boolean;
  lifeCycleState: string;
  currencyCode: string;
  balance: string;
}

export interface ProfileWallet {
  id: string;
  code: string;
  lifeCycleState: string;
  currencyCode: string;
  balance: string;
}

export interface ContactProfile {
  contact: ContactDocument;
  paymentMethod: { type: string; fundingType: string | null; brand: string | null } | null;
  /** Every account, the primary one first, each with its first wallet that is not cancelled. */
  financials: Array<{ account: ProfileAccount; wallet: ProfileWallet | null }>;
  rewardSchemes: Array<{ id: string; name: string; signedUpOn: string }>;
}

type Row = Omit<ContactProfile, 'contact'> & { contact: ContactJson; matched: number };

/** What a profile adds to the contact document of row alias `c`. */
const EXTRAS = `
  (SELECT json_build_object('type', m.type, 'fundingType', m.funding_type, 'brand', m.brand) FROM payment_methods m
    WHERE m.organisation_id = c.organisation_id AND m.contact_id = c.id AND m.deleted_at IS NULL
    ORDER BY m.is_default DESC, m.created_at, m.id LIMIT 1) AS "paymentMethod",
  COALESCE((SELECT json_agg(json_build_object(
      'account', json_build_object('id', a.id, 'number', a.number, 'name', a.name, 'isPrimary', a.is_primary,
        'lifeCycleState', a.life_cycle_state, 'currencyCode', a.currency_code, 'balance', a.balance::text),
      'wallet', (SELECT json_build_object('id', w.id, 'code', w.code, 'lifeCycleState', w.life_cycle_state, 'currencyCode', w.currency_code, 'balance', w.balance::text)
        FROM wallets w WHERE w.organisation_id = a.organisation_id AND w.account_id = a.id AND w.life_cycle_state <> 'CANCELLED'
        ORDER BY w.created_at, w.id LIMIT 1))
    ORDER BY a.is_primary DESC, a.created_at, a.id)
    FROM accounts a WHERE a.organisation_id = c.organisation_id AND a.contact_id = c.id), '[]'::json) AS financials,
  COALESCE((SELECT json_agg(json_build_object('id', s.id, 'name', s.name, 'signedUpOn', r.signed_up_on) ORDER BY r.signed_up_on, s.id)
    FROM accounts a JOIN account_reward_schemes r ON r.organisation_id = a.organisation_id AND r.account_id = a.id AND r.ended_on IS NULL
    JOIN reward_schemes s ON s.organisation_id = r.organisation_id AND s.id = r.scheme_id
    WHERE a.organisation_id = c.organisation_id AND a.contact_id = c.id AND a.is_primary), '[]'::json) AS "rewardSchemes"`;

/**
 * The profiles in the order asked for: ids and codes in request order (each contact once), a
 * search newest registered first. An id or code that names no contact of the organisation is
 * 400 naming it (`ids.N`, `codes.N`); a search matching more than PROFILE_CAP is 400 naming `search`.
 */
export async function contactProfiles(sql: OrgSql, selector: ProfileSelector): Promise<ContactProfile[]> {
  const params = new SqlParams();
  let where: string;
  if (selector.ids) where = `c.organisation_id = $1 AND c.id = ANY (${params.add(selector.ids)}::uuid[])`;
  else if (selector.codes) where = `c.organisation_id = $1 AND c.code = ANY (${params.add(selector.codes)}::text[])`;
  else {
    const filter = contactFilterCondition(selector.search ?? {});
    params.values.push(...filter.values);
    where = filter.where;
  }
  // The count sees every match; the documents are built for the first PROFILE_CAP only.
  const rows = await sql.rows<Row>(
    `SELECT ${CONTACT_DOCUMENT} AS contact, ${EXTRAS}, (count(*) OVER ())::int AS matched
     FROM contacts c WHERE ${where} ORDER BY c.created_at DESC, c.id DESC LIMIT ${PROFILE_CAP}`,
    params.values,
  );
  if ((rows[0]?.matched ?? 0) > PROFILE_CAP) {
    throw invalid('search', `${rows[0].matched} contacts match; at most ${PROFILE_CAP} profiles are answered at once`);
  }
  const profiles = rows.map((r) => ({ contact: fromJson(r.contact), paymentMethod: r.paymentMethod, financials: r.financials, rewardSchemes: r.rewardSchemes }));
  if (selector.ids) return inRequestOrder(selector.ids, profiles, (p) => p.contact.id, 'ids');
  if (selector.codes) return inRequestOrder(selector.codes, profiles, (p) => p.contact.code, 'codes');
  return profiles;
}

function inRequestOrder(keys: string[], profiles: ContactProfile[], keyOf: (p: ContactProfile) => string | null, attribute: string): ContactProfile[] {
  const byKey = new Map(profiles.map((p) => [keyOf(p), p]));
  const missing = keys.findIndex((k) => !byKey.has(k));
  if (missing >= 0) throw notFound('Contact', `${attribute}.${missing}`);
  return [...new Set(keys)].map((k) => byKey.get(k)!);
}
