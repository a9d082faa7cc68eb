// From a report body (spec 2.13) to SQL: the one place that builds report statements, for the
// preview and the full run alike (docs/reports.md "Body", "Filters", "Grouping"). Column and
// expression text comes only from the catalogue; every value the caller gave is a parameter; $1
// is the organisation. Rows are read in keyset pages (`readPage`), so a run of any size holds one
// page in memory.
import type { ReportQueryInput } from './types';
import type { OrgSql } from '../../db/sql';
import { SqlParams } from '../../db/sql-params';
import { alpha3Of } from '../contacts/countries';
import { invalid } from '../errors';
import { COLUMN_TYPES, type ColumnDef, type ColumnType, type ReportDef } from './catalogue';

/** A value as the database hands it over: decimals, integers and dates as text (exact). */
export type Cell = string | boolean | null;

export interface OutputField {
  order: number;
  key: string;
  label: string;
  /** A column of several fields is TEXT (their values joined by a space). */
  type: ColumnType;
}

/**
 * How dates leave: `epoch` seconds (the API's preview) or `local` text in the organisation's
 * time zone (the files people read).
 */
export type DateStyle = 'epoch' | 'local';

export interface CompiledReport {
  fields: OutputField[];
  /** The filters as a reader would say them (a PDF's title). */
  filterText: string[];
  /** How many sort key values a cursor holds. */
  sortKeys: number;
  /** The statement of one page after `cursor` (null: the first page). */
  page(cursor: Cursor | null, limit: number): { text: string; params: unknown[] };
}

/** The sort key values of a page's last row, as text. */
export type Cursor = Array<string | null>;

interface Key {
  expr: string;
  cast: string;
  nullable: boolean;
}

/** Each report's natural order: unique, never null, and backed by an index of the organisation. */
const NATURAL_KEYS: Record<string, Key[]> = {
  contacts: createdThenId(),
  purchases: [{ expr: 't.number', cast: 'bigint', nullable: false }],
  wallet_transactions: [{ expr: 't.number', cast: 'bigint', nullable: false }],
  journals: [{ expr: 't.number', cast: 'bigint', nullable: false }],
  communications: createdThenId(),
  webhook_requests: createdThenId(),
};

function createdThenId(): Key[] {
  return [{ expr: 't.created_at', cast: 'timestamptz', nullable: false }, { expr: 't.id', cast: 'uuid', nullable: false }];
}

const SQL_TYPE: Record<ColumnType, string> = { TEXT: 'text', INTEGER: 'numeric', NUMBER: 'numeric', AMOUNT: 'numeric', DATE: 'timestamptz', BOOLEAN: 'boolean' };
const NUMERIC: ReadonlySet<ColumnType> = new Set(['INTEGER', 'NUMBER', 'AMOUNT']);

const COUNT_FIELD = { key: 'count', label: 'Count', type: 'INTEGER' as const };

/**
 * Checks the body against the report's catalogue (400 naming the field: `columns_set.2.key`)
 * and builds its statements. Without columns_set: the report's columns, at most
 * `defaultColumns` of them (the preview's 10).
 */
export function compileReport(report: ReportDef, body: ReportQueryInput, o: { dates: DateStyle; timeZone: string; defaultColumns?: number }): CompiledReport {
  const sqlParams = new SqlParams();
  const param = (value: unknown, cast: string) => sqlParams.add(value, cast);
  let zone: string | undefined;
  /** The organisation's time zone, one parameter however often it is used (GROUP BY matches it). */
  const tz = () => (zone ??= param(o.timeZone, 'text'));

  const groups = (body.group_by_set ?? []).map((g, i) => ({ ...g, fields: resolve(report, g, `group_by_set.${i}`) }));
  groups.forEach((g, i) => {
    const refused = g.fields.find((f) => !f.groupable);
    if (refused) throw invalid(`group_by_set.${i}.key`, `${refused.key} cannot be grouped by`);
  });
  const grouped = groups.length > 0;
  const groupedFields = new Map(groups.flatMap((g) => g.fields).map((f) => [f.key, f]));
  /** A field's expression: its group expression when grouped (a DATE groups by day). */
  const groupExpr = (f: ColumnDef) => (f.type === 'DATE' ? `date_trunc('day', ${f.sql}, ${tz()})` : `(${f.sql})`);

  const where = [`t.organisation_id = $1`, ...(report.where ? [report.where] : [])];
  const filterText: string[] = [];
  (body.filters_set ?? []).forEach((filter, i) => {
    const path = `filters_set.${i}`;
    const fields = resolve(report, filter, path);
    const refused = fields.find((f) => !f.filterable);
    if (refused) throw invalid(`${path}.key`, `${refused.key} cannot be filtered on`);
    const value = String(filter.value).trim();
    const branches = fields.flatMap((f) => {
      const sql = condition(f, value, param, tz);
      return sql ? [sql] : [];
    });
    if (!branches.length) throw invalid(`${path}.value`, `${path}.value: ${describeValueRule(fields[0].type)}`);
    where.push(branches.length === 1 ? branches[0] : `(${branches.join(' OR ')})`);
    filterText.push(`${filter.label || fields.map((f) => f.label).join(' or ')}: ${value}`);
  });

  const selects: string[] = [];
  const fields: OutputField[] = [];
  const add = (field: Omit<OutputField, 'order'>, sql: string) => {
    selects.push(sql);
    fields.push({ ...field, order: fields.length + 1 });
  };
  const valueOf = (fs: ColumnDef[], path: string): { sql: string; type: ColumnType } => {
    if (!grouped) return joined(fs.map((f) => ({ f, expr: f.sql, day: false })), o.dates, tz);
    if (fs.every((f) => groupedFields.has(f.key))) return joined(fs.map((f) => ({ f, expr: groupExpr(f), day: f.type === 'DATE' })), o.dates, tz);
    if (fs.length === 1 && fs[0].aggregatable) return { sql: display(fs[0].type, `sum(${fs[0].sql})`, false, o.dates, tz), type: fs[0].type };
    throw invalid(`${path}.key`, `${fs.map((f) => f.key).join(',')} is neither grouped nor an amount to sum: add it to group_by_set or leave it out`);
  };

  if (body.columns_set?.length) {
    const columns = body.columns_set.map((c, i) => ({ c, i, at: c.order ?? i + 1 })).sort((a, b) => a.at - b.at || a.i - b.i);
    for (const { c, i } of columns) {
      const fs = resolve(report, c, `columns_set.${i}`);
      const v = valueOf(fs, `columns_set.${i}`);
      add({ key: fs.map((f) => f.key).join(','), label: c.label || c.value || fs.map((f) => f.label).join(', '), type: v.type }, v.sql);
    }
  } else {
    const defaults = grouped
      ? [...groups.map((g) => ({ fs: g.fields, label: g.label })), ...report.columns.filter((c) => c.aggregatable && !groupedFields.has(c.key)).map((c) => ({ fs: [c], label: undefined }))]
      : report.columns.map((c) => ({ fs: [c], label: undefined }));
    // A grouped preview keeps room for the count within its columns.
    const room = o.defaultColumns === undefined ? defaults.length : o.defaultColumns - (grouped ? 1 : 0);
    for (const d of defaults.slice(0, room)) {
      const v = valueOf(d.fs, 'columns_set');
      add({ key: d.fs.map((f) => f.key).join(','), label: d.label || d.fs.map((f) => f.label).join(', '), type: v.type }, v.sql);
    }
  }
  if (grouped) add(COUNT_FIELD, 'count(*)::text');

  const keys: Key[] = grouped
    ? [...groupedFields.values()].map((f) => ({ expr: groupExpr(f), cast: SQL_TYPE[f.type], nullable: true }))
    : NATURAL_KEYS[report.id];

  return {
    fields,
    filterText,
    sortKeys: keys.length,
    page(cursor, limit) {
      const pageParams = new SqlParams(...sqlParams.values);
      const conditions = [...where];
      if (cursor) conditions.push(after(keys, cursor, (v, cast) => pageParams.add(v, cast)));
      const text = [
        `SELECT ${[...selects.map((s, i) => `${s} AS c${i}`), ...keys.map((k, i) => `(${k.expr})::text AS k${i}`)].join(', ')}`,
        `FROM ${report.from}`,
        `WHERE ${conditions.join(' AND ')}`,
        grouped ? `GROUP BY ${keys.map((k) => k.expr).join(', ')}` : '',
        `ORDER BY ${keys.map((k) => `${k.expr} ASC${k.nullable ? ' NULLS FIRST' : ''}`).join(', ')}`,
        `LIMIT ${Math.floor(limit)}`,
      ].join('\n');
      return { text, params: pageParams.values };
    },
  };
}


/** One page of rows (cells in the order of `fields`) and the cursor of the next, null after the last. */
export async function readPage(sql: OrgSql, compiled: CompiledReport, cursor: Cursor | null, limit: number): Promise<{ rows: Cell[][]; next: Cursor | null }> {
  const { text, params } = compiled.page(cursor, limit);
  const raw = await sql.rows<Record<string, Cell>>(text, params);
  const width = compiled.fields.length;
  const rows = raw.map((r) => Array.from({ length: width }, (_, i) => r[`c${i}`] ?? null));
  const last = raw[raw.length - 1];
  const next = raw.length === limit ? Array.from({ length: compiled.sortKeys }, (_, i) => (last[`k${i}`] as string | null) ?? null) : null;
  return { rows, next };
}

interface Entry {
  key: string;
  type?: string | null;
}

/** The catalogue columns an entry's key names, its type (when given) checked against theirs. */
function resolve(report: ReportDef, entry: Entry, path: string): ColumnDef[] {
  const keys = entry.key.split(',').map((k) => k.trim());
  const fields = keys.map((k) => {
    const found = report.columns.find((c) => c.key === k);
    if (!found) throw invalid(`${path}.key`, `${path}.key: ${k ? `unknown column ${k}` : 'an empty key'} of report ${report.id}; see GET /reports/${report.id}`);
    return found;
  });
  if (entry.type) {
    const types = entry.type.split(',').map((t) => t.trim().toUpperCase());
    if (types.length !== fields.length) throw invalid(`${path}.type`, `${path}.type: ${fields.length} comma-separated types, one per key`);
    types.forEach((t, i) => {
      if (t !== fields[i].type) {
        const known = (COLUMN_TYPES as readonly string[]).includes(t) ? '' : ` (types: ${COLUMN_TYPES.join(', ')})`;
        throw invalid(`${path}.type`, `${path}.type: ${fields[i].key} is ${fields[i].type}, not ${t}${known}`);
      }
    });
  }
  return fields;
}

/** A column's value: one field in its own type, several joined by a space as text. */
function joined(parts: Array<{ f: ColumnDef; expr: string; day: boolean }>, dates: DateStyle, tz: () => string): { sql: string; type: ColumnType } {
  if (parts.length === 1) return { sql: display(parts[0].f.type, parts[0].expr, parts[0].day, dates, tz), type: parts[0].f.type };
  // Inside text, dates read as dates whatever the style.
  return { sql: `NULLIF(concat_ws(' ', ${parts.map((p) => display(p.f.type, p.expr, p.day, 'local', tz)).join(', ')}), '')`, type: 'TEXT' };
}

/** Text for every type but BOOLEAN, so pg and Prisma hand over the same exact values. */
function display(type: ColumnType, expr: string, day: boolean, dates: DateStyle, tz: () => string): string {
  switch (type) {
    case 'BOOLEAN':
      return `(${expr})`;
    case 'NUMBER':
    case 'AMOUNT':
      return `trim_scale(${expr})::text`;
    case 'DATE':
      return dates === 'epoch'
        ? `floor(extract(epoch FROM ${expr}))::bigint::text`
        : `to_char(${expr} AT TIME ZONE ${tz()}, '${day ? 'YYYY-MM-DD' : 'YYYY-MM-DD HH24:MI:SS'}')`;
    default:
      return `(${expr})::text`;
  }
}

const NUMBER = /^-?\d{1,15}(\.\d{1,10})?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const EPOCH = /^\d{1,12}$/;

/** One field's condition for the value, or undefined when the value means nothing for its type. */
function condition(f: ColumnDef, value: string, param: (v: unknown, cast: string) => string, tz: () => string): string | undefined {
  if (f.type === 'TEXT') {
    // Addresses store alpha-3: `CY` as text would find CYM (Cayman Islands) and `=CY` nothing.
    const country = f.country ? alpha3Of(value.replace(/^=/, '')) : undefined;
    if (country) return `${f.sql} = ${param(country, 'text')}`;
    if (value.startsWith('=')) return `lower(${f.sql}) = lower(${param(value.slice(1), 'text')})`;
    return `${f.sql} ILIKE ${param(`%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, 'text')}`;
  }
  if (f.type === 'BOOLEAN') {
    const v = value.toLowerCase();
    return v === 'true' || v === 'false' ? `${f.sql} = ${param(v, 'boolean')}` : undefined;
  }
  const range = splitRange(value);
  if (!range) return undefined;
  const [from, to] = range;
  if (NUMERIC.has(f.type)) {
    if ((from && !NUMBER.test(from)) || (to && !NUMBER.test(to))) return undefined;
    if (value === from) return `${f.sql} = ${param(from, 'numeric')}`;
    return [from && `${f.sql} >= ${param(from, 'numeric')}`, to && `${f.sql} <= ${param(to, 'numeric')}`].filter(Boolean).join(' AND ');
  }
  // DATE: inclusive ends; a day is the organisation's calendar day.
  const bound = (v: string, end: boolean) => {
    if (EPOCH.test(v)) return end ? `${f.sql} < to_timestamp(${param(v, 'bigint')} + 1)` : `${f.sql} >= to_timestamp(${param(v, 'bigint')})`;
    if (isDay(v)) {
      return end ? `${f.sql} < (${param(v, 'date')} + 1)::timestamp AT TIME ZONE ${tz()}` : `${f.sql} >= ${param(v, 'date')}::timestamp AT TIME ZONE ${tz()}`;
    }
    return undefined;
  };
  const parts = [from && bound(from, false), to && bound(to, true)];
  if (parts.some((p) => p === undefined)) return undefined;
  return parts.filter(Boolean).join(' AND ');
}

/** A real calendar day (not 2026-02-30). */
function isDay(v: string): boolean {
  if (!DAY.test(v)) return false;
  const parsed = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(v);
}

/** `a..b`, `a..`, `..b`, or a single value `a` (= `a..a`); undefined for `..` alone. */
function splitRange(value: string): [string, string] | undefined {
  const at = value.indexOf('..');
  if (at < 0) return [value, value];
  const [from, to] = [value.slice(0, at).trim(), value.slice(at + 2).trim()];
  return from || to ? [from, to] : undefined;
}

function describeValueRule(type: ColumnType): string {
  if (type === 'BOOLEAN') return 'true or false';
  if (type === 'DATE') return 'a date or range from..to, each end epoch seconds or YYYY-MM-DD';
  return 'a number or a range min..max';
}

/**
 * Rows after the cursor in the sort order. Keys that are never null compare as one row value
 * (an index can serve it); group keys may be null, which sorts first.
 */
function after(keys: Key[], cursor: Cursor, param: (v: unknown, cast: string) => string): string {
  if (keys.every((k) => !k.nullable)) {
    return `(${keys.map((k) => k.expr).join(', ')}) > (${keys.map((k, i) => param(cursor[i], k.cast)).join(', ')})`;
  }
  const from = (i: number): string => {
    const k = keys[i];
    const v = cursor[i];
    const greater = v === null ? `${k.expr} IS NOT NULL` : `${k.expr} > ${param(v, k.cast)}`;
    if (i === keys.length - 1) return greater;
    const equal = v === null ? `${k.expr} IS NULL` : `${k.expr} = ${param(v, k.cast)}`;
    return `(${greater} OR (${equal} AND ${from(i + 1)}))`;
  };
  return from(0);
}
