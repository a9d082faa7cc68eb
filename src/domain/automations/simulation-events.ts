// The events a simulation judges (docs/automations.md "Simulations"), rebuilt from the records that
// raised them: the facts each entity's events carry (the payloads of src/domain/events/outbox.ts,
// src/domain/contacts/create.ts, src/domain/loyalty/purchases/post.ts, ...) and the contact's
// snapshot, read as the record and the contact are now. One record (RECORD mode), or every event
// of a type in a window, a keyset page at a time (HISTORY mode): REGISTER_CONTACT, PURCHASE_POSTED
// and VOUCHER_ISSUED from their records, any other type from the outbox (its retention).
import type { OrgSql } from '../../db/sql';
import { contactSnapshotSql } from '../events/contact-snapshot';
import { isId } from '../ids';
import type { EntityCode } from './catalogue';
import type { AutomationEvent } from './plan';

interface Source {
  /** FROM clause; the record is `r`. */
  from: string;
  /** The record's facts as a jsonb expression (its contact id under `contact_id`). */
  facts: string;
  /** The contact's id, an SQL expression. */
  contact: string;
}

const money = (col: string) => `CASE WHEN ${col} IS NULL THEN NULL ELSE trim_scale(${col})::text END`;
const epochOf = (col: string) => `floor(extract(epoch FROM ${col}))::bigint`;

const SOURCES: Record<EntityCode, Source> = {
  CONTACTS: {
    from: 'contacts r',
    facts: `jsonb_build_object('contact_id', r.id, 'contact_type', r.contact_type,
      'account_ids', coalesce((SELECT jsonb_agg(acc.id ORDER BY acc.created_at, acc.id) FROM accounts acc WHERE acc.organisation_id = $1 AND acc.contact_id = r.id), '[]'::jsonb))`,
    contact: 'r.id',
  },
  PURCHASES: {
    from: 'purchases r',
    facts: `jsonb_build_object('purchase_id', r.id, 'contact_id', r.contact_id, 'account_id', r.account_id, 'reference_number', r.reference_number,
      'total_amount', ${money('r.total_amount')}, 'currency_code', r.currency_code)`,
    contact: 'r.contact_id',
  },
  WALLETS: {
    // Not `a`: the snapshot's own subqueries use c and a.
    from: 'wallets r JOIN accounts acc ON acc.id = r.account_id',
    facts: `jsonb_build_object('wallet_id', r.id, 'contact_id', acc.contact_id, 'account_id', r.account_id, 'currency_code', r.currency_code)`,
    contact: 'acc.contact_id',
  },
  VOUCHERS: {
    from: 'vouchers r',
    facts: `jsonb_build_object('voucher_id', r.id, 'contact_id', r.contact_id, 'number', r.number, 'voucher_type_id', r.voucher_type_id,
      'value', ${money('r.value')}, 'used_value', ${money('r.used_value')}, 'currency_code', r.currency_code,
      'expiration_date', ${epochOf('r.expiration_date')}, 'used_on', ${epochOf('r.used_at')}, 'purchase_id', r.purchase_id)`,
    contact: 'r.contact_id',
  },
  COMMUNICATIONS: {
    from: 'communications r',
    facts: `jsonb_build_object('communication_id', r.id, 'contact_id', r.contact_id, 'channel', r.channel, 'template_id', r.template_id, 'plan_id', r.plan_id)`,
    contact: 'r.contact_id',
  },
};

type Row = { id: string; type: string; createdOn: string; payload: Record<string, unknown> };
const toEvent = (r: Row): AutomationEvent => ({ id: r.id, type: r.type, createdOn: Number(r.createdOn), payload: r.payload });

/**
 * The event `type` of the record `entityId` (an id, or for a contact its code too) as it would be
 * raised now; null when the organisation has no such record. Its id is the record's.
 */
export async function recordEvent(sql: OrgSql, entity: EntityCode, type: string, entityId: string): Promise<AutomationEvent | null> {
  const s = SOURCES[entity];
  const byId = isId(entityId);
  if (!byId && entity !== 'CONTACTS') return null;
  const where = byId ? 'r.id = $2::uuid' : 'r.code = $2';
  const [row] = await sql.rows<Row>(
    `SELECT r.id, $3::text AS type, ${epochOf('now()')} AS "createdOn", ${s.facts} || ${contactSnapshotSql(s.contact)} AS payload
     FROM ${s.from} WHERE r.organisation_id = $1 AND ${where}`,
    [byId ? entityId.toLowerCase() : entityId, type],
  );
  return row ? toEvent(row) : null;
}

/** Where HISTORY finds the events of a type: the records that raise them (their time column), else the outbox. */
const REBUILT: Record<string, { entity: EntityCode; at: string }> = {
  REGISTER_CONTACT: { entity: 'CONTACTS', at: 'r.created_at' },
  PURCHASE_POSTED: { entity: 'PURCHASES', at: 'r.performed_on' },
  VOUCHER_ISSUED: { entity: 'VOUCHERS', at: 'r.created_at' },
};

/** Rebuilt from records (true) or read from the outbox (false). */
export const rebuiltFromRecords = (type: string): boolean => type in REBUILT;

/** Where a page starts: after this event (its time in ms and its id). */
export interface Cursor {
  at: number;
  id: string;
}

/** A statement over the window [$2, $3) (timestamps) of one type ($4), in (time, id) order, after the cursor ($5, $6). */
function windowSql(type: string, select: string, after: boolean): string {
  const keyset = (at: string, id: string) => (after ? ` AND (${at}, ${id}) > (to_timestamp($5::float8 / 1000), $6::uuid)` : '');
  const rebuilt = REBUILT[type];
  if (rebuilt) {
    const s = SOURCES[rebuilt.entity];
    return select
      .replace('<EVENT>', `r.id, $4::text AS type, ${epochOf(rebuilt.at)} AS "createdOn", floor(extract(epoch FROM ${rebuilt.at}) * 1000)::bigint AS ms,
        ${s.facts} || ${contactSnapshotSql(s.contact)} AS payload`)
      .replace('<FROM>', `${s.from} WHERE r.organisation_id = $1 AND ${rebuilt.at} >= $2 AND ${rebuilt.at} < $3${keyset(rebuilt.at, 'r.id')}`)
      .replace('<ORDER>', `${rebuilt.at}, r.id`);
  }
  // An event whose snapshot was dropped at dispatch (it started no run) gets the contact as it is now.
  return select
    .replace('<EVENT>', `r.id, r.type, ${epochOf('r.created_at')} AS "createdOn", floor(extract(epoch FROM r.created_at) * 1000)::bigint AS ms,
      CASE WHEN r.payload ? 'contact' OR NOT r.payload ? 'contact_id' THEN r.payload
        ELSE r.payload || ${contactSnapshotSql(`(r.payload->>'contact_id')::uuid`)} END AS payload`)
    .replace('<FROM>', `outbox_events r WHERE r.organisation_id = $1 AND r.type = $4 AND r.created_at >= $2 AND r.created_at < $3${keyset('r.created_at', 'r.id')}`)
    .replace('<ORDER>', 'r.created_at, r.id');
}

/** How many events of `type` the window [from, to) holds. */
export async function countWindow(sql: OrgSql, type: string, from: Date, to: Date): Promise<number> {
  // The outbox's statement names the type ($4); a record's table is the type's own.
  const [row] = await sql.rows<{ n: number }>(windowSql(type, 'SELECT count(*)::int AS n FROM <FROM>', false), rebuiltFromRecords(type) ? [from, to] : [from, to, type]);
  return row.n;
}

/** The next page of at most `size` events of `type` in [from, to) after `cursor`, and the cursor after it. */
export async function windowPage(sql: OrgSql, type: string, from: Date, to: Date, cursor: Cursor | null, size: number): Promise<{ events: AutomationEvent[]; next: Cursor | null }> {
  const text = windowSql(type, 'SELECT <EVENT> FROM <FROM> ORDER BY <ORDER> LIMIT $' + (cursor ? 7 : 5), cursor !== null);
  const values: unknown[] = [from, to, type, ...(cursor ? [cursor.at, cursor.id] : []), size];
  const rows = await sql.rows<Row & { ms: string }>(text, values);
  const last = rows.at(-1);
  return { events: rows.map(toEvent), next: last ? { at: Number(last.ms), id: last.id } : null };
}
