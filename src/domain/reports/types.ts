// Input types of the report domain: the output of the request schemas (DEVELOPING.md "Types
// come from the schemas").
import type { z } from 'zod';
import type { reportQueryBody, reportRunBody } from '../../api/reports/schemas';

export type ReportQueryInput = z.output<typeof reportQueryBody>;
export type ReportRunInput = z.output<typeof reportRunBody>;
