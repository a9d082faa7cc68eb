// The organisation's time zone (organisation_settings.time_zone): an IANA name that both the
// service (Intl, for validation and tests) and PostgreSQL (for the buckets) understand.
import type { OrgSql } from '../../db/sql';
import { invalid } from '../errors';

const ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/**
 * The zone as stored, or null when Intl does not know it. ICU lists canonical names only
 * (Asia/Calcutta); an alias (Asia/Kolkata) is kept as written, a name in the wrong case is
 * spelled as ICU spells it. Offsets such as "+02:00" are not zones: a fixed offset has no
 * daylight saving, which is what a zone is for here.
 */
export function timeZoneName(value: string): string | null {
  if (ZONES.has(value)) return value;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (!ZONES.has(resolved)) return null;
  return resolved.toLowerCase() === value.toLowerCase() ? resolved : value;
}

// GROUP BY (): one row even before the organisation has a settings row.
const KNOWN = `SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = $2) AS known
FROM organisation_settings WHERE organisation_id = $1 GROUP BY ()`;

/** PostgreSQL has its own copy of the zone database: a name it lacks would fail every bucket. */
export async function checkTimeZoneKnown(sql: OrgSql, zone: string): Promise<void> {
  const [row] = await sql.rows<{ known: boolean }>(KNOWN, [zone]);
  if (!row.known) throw invalid('time_zone', `time_zone: ${zone} is not known to the database`);
}
