// What the report form holds, and how it becomes the preview and run body (docs/reports.md
// "Body"); the API checks every key and value against its catalogue, so nothing is checked here
// twice: its refusals come back named (`filters_set.1.value`) and land at that row's field.
import type { Body } from '../api/types';
import type { Column, ColumnType, Format } from './types';

export interface FilterDraft {
  key: string | null;
  /** The API's own syntax: `text`, `=exact`, `10..500`, `2026-01-01..2026-01-31`, `true`. */
  value: string;
}

export interface ReportDraft {
  filters: FilterDraft[];
  columns: string[];
  groupBy: string[];
  format: Format;
}

export const emptyDraft = (): ReportDraft => ({ filters: [{ key: null, value: '' }], columns: [], groupBy: [], format: 'CSV' });

type RunBody = Body<'/reports/{id}', 'post'>;
export type QueryBody = Omit<RunBody, 'format'>;

/**
 * The body, and for each `filters_set` index the draft row it came from (rows without a column
 * are not sent, so the API's indexes and the form's can differ).
 */
export function bodyOf(draft: ReportDraft): { body: QueryBody; rows: number[] } {
  const rows = draft.filters.flatMap((f, i) => (f.key ? [i] : []));
  const body: QueryBody = {};
  if (rows.length) body.filters_set = rows.map((i) => ({ key: draft.filters[i].key!, value: draft.filters[i].value.trim() }));
  if (draft.columns.length) body.columns_set = draft.columns.map((key, i) => ({ key, order: i + 1 }));
  if (draft.groupBy.length) body.group_by_set = draft.groupBy.map((key, i) => ({ key, order: i + 1 }));
  return { body, rows };
}

/** The form's field for an API attribute: `filters_set.2.value` → `filter.<row>.value`. */
export function fieldOf(attribute: string, rows: number[]): string | undefined {
  const filter = /^filters_set\.(\d+)(?:\.(\w+))?/.exec(attribute);
  if (filter) {
    const row = rows[Number(filter[1])];
    if (row === undefined) return undefined;
    return `filter.${row}.${filter[2] === 'key' || filter[2] === 'type' ? 'key' : 'value'}`;
  }
  if (attribute.startsWith('columns_set')) return 'columns';
  if (attribute.startsWith('group_by_set')) return 'groupBy';
  if (attribute === 'format') return 'format';
  return undefined;
}

/** What a filter's value means for the column's type (docs/reports.md "Filters"). */
export const VALUE_HINTS: Record<ColumnType, string> = {
  TEXT: 'Contains, any case; start with = for equals (=POSTED)',
  INTEGER: 'A number, or a range 10..20 (either end may be left out)',
  NUMBER: 'A number, or a range 1.5..3 (either end may be left out)',
  AMOUNT: 'An amount, or a range 10..500 (either end may be left out)',
  DATE: 'Days of the organisation’s time zone, both included',
  BOOLEAN: 'Yes or no',
};

/** A DATE filter's `from..to` as its two days (either may be empty). */
export function daysOf(value: string): [string, string] {
  const [from = '', to = ''] = value.split('..');
  return value.includes('..') ? [from, to] : [from, from];
}
export const dayRange = (from: string, to: string) => (from || to ? `${from}..${to}` : '');

export const typeOf = (columns: Column[], key: string | null) => columns.find((c) => c.key === key)?.type;
