// How a contact's full name (contact_name) is composed, per organisation.
import type { Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';

export const NAME_DISPLAY_FORMATS = [
  'FIRST_LAST',
  'LAST_FIRST',
  'LAST_COMMA_FIRST',
  'TITLE_FIRST_LAST',
  'FIRST_MIDDLE_LAST',
  'TITLE_FIRST_MIDDLE_LAST',
] as const;

export type NameDisplayFormat = (typeof NAME_DISPLAY_FORMATS)[number];

export const DEFAULT_NAME_DISPLAY_FORMAT: NameDisplayFormat = 'FIRST_LAST';

export interface NameParts {
  title?: string | null;
  first_name?: string | null;
  middle_name?: string | null;
  last_name?: string | null;
}

/** Joins the parts the format names, skipping empty ones (no double spaces, no dangling comma). */
export function formatContactName(format: NameDisplayFormat, parts: NameParts): string {
  const title = clean(parts.title);
  const first = clean(parts.first_name);
  const middle = clean(parts.middle_name);
  const last = clean(parts.last_name);
  switch (format) {
    case 'LAST_FIRST':
      return join(last, first);
    case 'LAST_COMMA_FIRST':
      return last && first ? `${last}, ${first}` : join(last, first);
    case 'TITLE_FIRST_LAST':
      return join(title, first, last);
    case 'FIRST_MIDDLE_LAST':
      return join(first, middle, last);
    case 'TITLE_FIRST_MIDDLE_LAST':
      return join(title, first, middle, last);
    case 'FIRST_LAST':
    default:
      return join(first, last);
  }
}

export interface NameDisplaySettings {
  format: NameDisplayFormat;
  /** Null while the organisation has never set it (the default applies). */
  updatedAt: Date | null;
}

// Read on every contact read (through the cache below): one statement, no ORM.
const SETTINGS = 'SELECT format, updated_at AS "updatedAt" FROM name_display_settings WHERE organisation_id = $1';

export async function getNameDisplaySettings(sql: OrgSql): Promise<NameDisplaySettings> {
  const [row] = await sql.rows<{ format: string; updatedAt: Date }>(SETTINGS);
  return row ? { format: asFormat(row.format), updatedAt: row.updatedAt } : { format: DEFAULT_NAME_DISPLAY_FORMAT, updatedAt: null };
}

/**
 * Every contact read needs the format, and it almost never changes: it is kept in memory for a
 * few seconds. A change through this process evicts it at once; other replicas follow within
 * FORMAT_CACHE_MS.
 */
const FORMAT_CACHE_MS = 5_000;
const formatCache = new Map<string, { format: NameDisplayFormat; until: number }>();

/** Call after the transaction that changed the format has committed. */
export function forgetNameDisplayFormat(organisationId: string): void {
  formatCache.delete(organisationId);
}

export async function getNameDisplayFormat(sql: OrgSql, organisationId: string): Promise<NameDisplayFormat> {
  const cached = formatCache.get(organisationId);
  if (cached && cached.until > Date.now()) return cached.format;
  const { format } = await getNameDisplaySettings(sql);
  if (formatCache.size > 10_000) formatCache.clear();
  formatCache.set(organisationId, { format, until: Date.now() + FORMAT_CACHE_MS });
  return format;
}

export async function setNameDisplayFormat(tx: Tx, actor: AuditActor, format: NameDisplayFormat): Promise<NameDisplaySettings> {
  const { organisationId } = actor;
  const row = await tx.nameDisplaySetting.upsert({
    where: { organisationId },
    create: { organisationId, format },
    update: { format },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: 'name_display_setting', entityId: organisationId, changes: { format } });
  return { format: asFormat(row.format), updatedAt: row.updatedAt };
}

function isFormat(value: string): value is NameDisplayFormat {
  return (NAME_DISPLAY_FORMATS as readonly string[]).includes(value);
}

/** The column is plain text; a value this code does not know falls back to the default. */
function asFormat(value: string): NameDisplayFormat {
  return isFormat(value) ? value : DEFAULT_NAME_DISPLAY_FORMAT;
}

function clean(part: string | null | undefined): string {
  return part?.trim() ?? '';
}

function join(...parts: string[]): string {
  return parts.filter((p) => p !== '').join(' ');
}
