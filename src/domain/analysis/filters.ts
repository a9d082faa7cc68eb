// What the two analysis lists share (docs/analysis.md): the reference a filter names, calendar
// days in the organisation's time zone, and the page's ORDER BY. Statements here run on ctx.sql: $1 is the organisation.
import type { OrgSql } from '../../db/sql';
import { notFound } from '../errors';
import { TIME_ZONE_SQL } from '../money/settings';

/** A filter by id, code or both (then both must match one record). */
export interface RefFilter {
  id?: string;
  code?: string;
}

const REF_TABLES = { category: ['contact_categories', 'Contact category'], tier: ['reward_tiers', 'Reward tier'] } as const;

/**
 * The id of the category or tier a list filter names, undefined without a filter. One that
 * names nothing is 400 naming the parameter (as GET /merchants does for reward_scheme_id): an
 * empty page would hide a typo.
 */
export async function resolveRef(sql: OrgSql, kind: keyof typeof REF_TABLES, ref: RefFilter): Promise<string | undefined> {
  if (ref.id === undefined && ref.code === undefined) return undefined;
  const [table, label] = REF_TABLES[kind];
  const [row] = await sql.rows<{ id: string }>(
    `SELECT id FROM ${table} WHERE organisation_id = $1 AND ($2::uuid IS NULL OR id = $2::uuid) AND ($3::text IS NULL OR code = $3::text)`,
    [ref.id ?? null, ref.code ?? null],
  );
  if (!row) throw notFound(label, ref.id !== undefined ? `${kind}_id` : `${kind}_code`);
  return row.id;
}

/** The organisation's time zone (organisation_settings.time_zone, UTC without settings) as `zone.tz`. */
export const ZONE = `(SELECT ${TIME_ZONE_SQL} AS tz) zone`;

/** Calendar days from the day of `moment` to today, both in the organisation's time zone; null without a moment. */
export const daysSince = (moment: string) => `((now() AT TIME ZONE zone.tz)::date - (${moment} AT TIME ZONE zone.tz)::date)`;

/** ORDER BY of a page: the sort key (nulls last either way), the contact id breaking ties. */
export function orderBy(key: string, order: 'ASC' | 'DESC', idColumn: string): string {
  return `${key} ${order} NULLS LAST, ${idColumn} ${order}`;
}

