// GET /reports/{id}/preview (spec 4.9, part 8 limits): the run's own statement, first page only.
import type { OrgSql } from '../../db/sql';
import { reportDef } from './catalogue';
import { getSettingsSql } from '../money/settings';
import { compileReport, readPage, type Cell, type OutputField } from './query';
import type { ReportQueryInput } from './types';

export const PREVIEW_ROWS = 10;
export const PREVIEW_COLUMNS = 10;

export async function previewReport(sql: OrgSql, reportId: string, body: ReportQueryInput): Promise<{ fields: OutputField[]; rows: Cell[][] }> {
  const report = reportDef(reportId);
  const compiled = compileReport(report, body, { dates: 'epoch', timeZone: (await getSettingsSql(sql)).timeZone, defaultColumns: PREVIEW_COLUMNS });
  const { rows } = await readPage(sql, compiled, null, PREVIEW_ROWS);
  return { fields: compiled.fields, rows };
}
