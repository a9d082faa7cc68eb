// A preview value as the page shows it. The API types its values (numbers and amounts JSON
// numbers, dates epoch seconds, booleans JSON booleans: docs/reports.md "Preview"); the field's
// type comes from the catalogue by key. Amounts keep the API's digits (components/format.ts).
import { money } from '../components/format';
import type { Column, ColumnType, PreviewField } from './types';
import { inZone } from '../components/zone';

/** The type of an output field: a key of several columns is joined text; `count` is the grouped count. */
export function fieldType(columns: Column[], key: string): ColumnType {
  if (key === 'count') return 'INTEGER';
  return key.includes(',') ? 'TEXT' : (columns.find((c) => c.key === key)?.type ?? 'TEXT');
}

export function cellText(field: PreviewField, type: ColumnType, zone: string, grouped: boolean): string {
  const v = field.value;
  if (v === null) return '—';
  switch (type) {
    case 'AMOUNT':
      return money(v as number | string);
    case 'DATE':
      // A grouped date is the day (its midnight in the organisation's zone).
      return typeof v === 'number'
        ? inZone(v, zone, grouped ? { dateStyle: 'medium' } : { dateStyle: 'medium', timeStyle: 'medium' })
        : String(v);
    case 'BOOLEAN':
      return v === true ? 'Yes' : v === false ? 'No' : String(v);
    default:
      return String(v);
  }
}

export const isNumeric = (type: ColumnType) => type === 'AMOUNT' || type === 'INTEGER' || type === 'NUMBER';
