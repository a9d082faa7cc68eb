// Report bodies (spec 2.13 report run and preview bodies) and responses (docs/reports.md).
// Keys and types are checked against the report's catalogue by src/domain/reports/query.ts,
// which names the offending field (`filters_set.0.key`) the same way zod does here.
import { z } from 'zod';
import { COLUMN_TYPES } from '../../domain/reports/catalogue';
import { contentList } from '../lists';
import { pagingQuery, zId, zAnyCase } from '../validation';

const key = z.string().trim().min(1).max(500).meta({
  description: 'A column key of the report, or several joined by commas (`first_name,last_name`).',
  example: 'total_amount',
});
const type = z.string().trim().min(1).max(200).transform((v) => v.toUpperCase()).meta({
  description: `The column's type (${COLUMN_TYPES.join(', ')}; any letter case), comma-separated like key when key names several. Optional; when given it must match the catalogue.`,
});
const label = z.string().trim().max(200).nullish();
const order = z.number().int().min(0).max(10_000).optional().meta({ description: 'Position of the column; default: its place in the list.' });

const filterItem = z.strictObject({
  key,
  value: z.union([z.string().trim().min(1).max(500), z.number().finite(), z.boolean()]).meta({
    description: 'TEXT: contains, case-insensitive (`=` first: equals). INTEGER, NUMBER, AMOUNT: a number, or a range `min..max` (either end may be left out). DATE: `from..to`, each end epoch seconds or YYYY-MM-DD (a day in the organisation time zone), inclusive; a single value is that second or day. BOOLEAN: true or false.',
  }),
  label,
  type: type.optional(),
});

const columnItem = z.strictObject({
  key,
  order,
  label: label.meta({ description: "The column's header; default: the catalogue's label." }),
  value: label.meta({ description: 'Same as label (the preview body of spec 2.13 names it so).' }),
  type: type.optional(),
});

const groupItem = z.strictObject({ key, order, label, type: type.optional() });

/** What preview and run share: which rows (filters), which columns, which groups. */
export const reportQueryBody = z.strictObject({
  filters_set: z.array(filterItem).max(50).optional().meta({ description: 'Every filter must match (AND); a filter whose key names several fields matches when any of them does (OR).' }),
  columns_set: z.array(columnItem).max(100).optional().meta({ description: "The output columns; default: the report's columns (a preview shows the first 10)." }),
  group_by_set: z.array(groupItem).max(10).optional().meta({
    description: 'One row per distinct value of these keys (DATE columns: per day), with a count column; columns_set may then name only grouped keys and amount columns, which are summed.',
  }),
});

export const reportRunBody = reportQueryBody.extend({
  format: zAnyCase(['CSV', 'PDF'])
    .default('CSV')
    .meta({ description: 'CSV (default) or PDF, any letter case.' }),
});

export const reportParams = z.object({ id: z.string().min(1).max(100).meta({ description: 'The unique report name, e.g. `purchases`.', example: 'purchases' }) });
export const runParams = reportParams.extend({ run_id: zId.meta({ description: 'The run id answered by POST /reports/{id}.' }) });

export const previewQuery = z.strictObject({
  // URL-encoded, 16,000 characters take at most 48,000 of the 64 KiB a request line and its headers may have (src/api/server.ts).
  body: z.string().max(16_000).optional().meta({
    description: 'The preview body as URL-encoded JSON, for clients that cannot send a body with GET: at most 16,000 characters (a URL carries 64 KiB at most); a longer one goes in the GET body.',
  }),
});

export const reportListQuery = pagingQuery(['name']);
export const runListQuery = pagingQuery(['created_on']);

const columnOut = z.object({
  key: z.string(),
  label: z.string(),
  type: z.enum(COLUMN_TYPES),
  filterable: z.boolean(),
  groupable: z.boolean(),
  aggregatable: z.boolean(),
});

export const reportItem = z.object({ id: z.string(), name: z.string(), description: z.string(), columns: z.array(columnOut) });
export const reportList = contentList(reportItem);

export const previewResponse = z.object({
  content: z.array(
    z.object({
      fields: z.array(z.object({ order: z.number().int(), key: z.string(), label: z.string(), value: z.union([z.string(), z.number(), z.boolean(), z.null()]) })),
    }),
  ),
});

export const runItem = z.object({
  id: z.string(),
  report: z.string(),
  format: z.enum(['CSV', 'PDF']),
  state: z.enum(['PENDING', 'RUNNING', 'SENT', 'FAILED']),
  recipient: z.string(),
  row_count: z.number().int().nullable(),
  byte_count: z.number().int().nullable(),
  error: z.string().nullable(),
  created_on: z.number().int(),
  completed_on: z.number().int().nullable(),
});
export const runList = contentList(runItem);
