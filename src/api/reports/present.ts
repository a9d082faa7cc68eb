// Reports as the API shows them (docs/reports.md): the catalogue without its SQL, preview rows
// with typed values, runs with epoch times.
import type { z } from 'zod';
import type { ReportRun } from '../../db/client';
import type { ReportDef } from '../../domain/reports/catalogue';
import type { Cell, OutputField } from '../../domain/reports/query';
import type { RunState } from '../../domain/reports/runs';
import { amount, epoch } from '../present';
import type { previewResponse, reportItem, runItem } from './schemas';

export function presentReport(r: ReportDef): z.input<typeof reportItem> {
  return {
    id: r.id, name: r.name, description: r.description,
    columns: r.columns.map((c) => ({ key: c.key, label: c.label, type: c.type, filterable: c.filterable, groupable: c.groupable, aggregatable: c.aggregatable })),
  };
}

/** Numbers and dates (epoch seconds) leave as JSON numbers, read from their exact text. */
function value(field: OutputField, cell: Cell): string | number | boolean | null {
  if (cell === null || typeof cell === 'boolean' || field.type === 'TEXT') return cell;
  return field.type === 'BOOLEAN' ? cell === 'true' : amount(cell);
}

export function presentPreview(fields: OutputField[], rows: Cell[][]): z.input<typeof previewResponse> {
  return { content: rows.map((row) => ({ fields: fields.map((f, i) => ({ order: f.order, key: f.key, label: f.label, value: value(f, row[i]) })) })) };
}

export function presentRun(r: ReportRun): z.input<typeof runItem> {
  return {
    id: r.id, report: r.report, format: r.format as 'CSV' | 'PDF', state: r.state as RunState, recipient: r.recipient,
    row_count: r.rowCount, byte_count: r.byteCount, error: r.error, created_on: epoch(r.createdAt), completed_on: epoch(r.completedAt),
  };
}
