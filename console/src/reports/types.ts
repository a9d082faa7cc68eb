// Shapes of the report operations (docs/reports.md), named from the generated paths.
import type { Get } from '../api/types';

export type Report = Get<'/reports/{id}'>;
export type Column = Report['columns'][number];
export type ColumnType = Column['type'];
export type PreviewRecord = Get<'/reports/{id}/preview'>['content'][number];
export type PreviewField = PreviewRecord['fields'][number];
export type ReportRun = Get<'/reports/{id}/runs/{run_id}'>;
export type RunState = ReportRun['state'];
export type Format = ReportRun['format'];
