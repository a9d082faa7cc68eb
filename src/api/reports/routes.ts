// Reports (spec 2.13, 4.9; docs/reports.md): the catalogue, the preview, runs mailed as CSV or PDF.
import { actorOf } from '../../domain/audit';
import { invalid } from '../../domain/errors';
import { reportDef, reportDefs } from '../../domain/reports/catalogue';
import { PREVIEW_COLUMNS, PREVIEW_ROWS, previewReport } from '../../domain/reports/preview';
import { compileReport } from '../../domain/reports/query';
import { createReportRun, getReportRun, listReportRuns, reportRecipient } from '../../domain/reports/runs';
import type { AppDeps } from '../deps';
import { contentPage, listArgs, offsetOf } from '../lists';
import { fromZod } from '../middleware/errors';
import { groupAuth, route, type RouteDef } from '../route';
import { idResponse } from '../validation';
import { presentPreview, presentReport, presentRun } from './present';
import { previewQuery, previewResponse, reportItem, reportList, reportListQuery, reportParams, reportQueryBody, reportRunBody, runItem, runList, runListQuery, runParams } from './schemas';

const TAG = 'Reports';
const { read, write } = groupAuth('reports');

const EXAMPLE = {
  filters_set: [{ label: 'Total', key: 'total_amount', value: '10..500', type: 'AMOUNT' }],
  columns_set: [
    { order: 1, label: 'Number', key: 'number', type: 'INTEGER' },
    { order: 2, label: 'Customer', key: 'contact_code,contact_name', type: 'text,text' },
    { order: 3, label: 'Total', key: 'total_amount', type: 'amount' },
  ],
};

/** The preview body: the GET body, or the same JSON URL-encoded in `?body=`. */
function previewBody(fromQuery: string | undefined, fromBody: object) {
  if (fromQuery === undefined) return fromBody;
  if (Object.keys(fromBody).length) throw invalid('body', 'Give the preview body once: as the request body or in the body query parameter');
  let json: unknown;
  try {
    json = JSON.parse(fromQuery);
  } catch {
    throw invalid('body', 'body: not valid JSON');
  }
  const parsed = reportQueryBody.safeParse(json);
  if (!parsed.success) throw fromZod(parsed.error);
  return parsed.data;
}

export function reportRoutes(deps: AppDeps): RouteDef[] {
  return [
    route({
      method: 'get', path: '/reports', operationId: 'listReports', tag: TAG, auth: read,
      summary: 'List the report catalogue',
      description: 'Every report with its columns (key, label, type, and whether it can be filtered, grouped or summed). In catalogue order, or by name with sort=name.',
      query: reportListQuery, response: reportList,
      handler: async ({ query }) => {
        const all = [...reportDefs()];
        if (query.sort === 'name') all.sort((a, b) => a.name.localeCompare(b.name) * (query.order === 'ASC' ? 1 : -1));
        return contentPage(query, all.slice(offsetOf(query), offsetOf(query) + query.size).map(presentReport), all.length);
      },
    }),
    route({
      method: 'get', path: '/reports/{id}', operationId: 'getReport', tag: TAG, auth: read,
      summary: "Get a report's definition", params: reportParams, response: reportItem, errors: [404],
      handler: async ({ params }) => presentReport(reportDef(params.id)),
    }),
    route({
      method: 'get', path: '/reports/{id}/preview', operationId: 'previewReport', tag: TAG, auth: read,
      summary: 'Preview a report',
      description:
        `The first ${PREVIEW_ROWS} records of the report as the run would write them, with the body of a run (format aside) sent as the GET request's JSON body, ` +
        'or URL-encoded in the query parameter `body` for clients that cannot send a body with GET. ' +
        `Without columns_set, the report's first ${PREVIEW_COLUMNS} columns. Dates are epoch seconds, amounts numbers.`,
      params: reportParams, query: previewQuery, body: reportQueryBody, response: previewResponse, errors: [404],
      example: EXAMPLE,
      handler: async ({ ctx, params, query, body }) => {
        const { fields, rows } = await previewReport(ctx.sql, params.id, previewBody(query.body, body));
        return presentPreview(fields, rows);
      },
    }),
    route({
      method: 'post', path: '/reports/{id}', operationId: 'runReport', tag: TAG, auth: write,
      summary: 'Run a report and e-mail it',
      description:
        'Checks the body exactly as the preview does, then writes the run PENDING and starts its workflow (id report-run:<run id>), which writes every row into a CSV or PDF file ' +
        'and e-mails it to the user who ran the report (for an API key: the user who created the key), then marks the run SENT. ' +
        '409 REPORT_RECIPIENT_MISSING when that user has no e-mail address. Follow the run with GET /reports/{id}/runs/{run_id}.',
      params: reportParams, body: reportRunBody, response: idResponse, errors: [404, 409],
      example: { format: 'CSV', ...EXAMPLE },
      // The answer follows the workflow's start (or signal): a client may look at it at once.
      waitForDispatch: true,
      handler: async ({ ctx, params, body }) => {
        // The body's 400s come before anything is written (the time zone changes no check).
        compileReport(reportDef(params.id), body, { dates: 'local', timeZone: 'UTC' });
        const recipient = await reportRecipient(ctx.db, ctx.actor);
        const run = await createReportRun(ctx.db, actorOf(ctx), params.id, body, recipient);
        return { id: run.id };
      },
    }),
    route({
      method: 'get', path: '/reports/{id}/runs', operationId: 'listReportRuns', tag: TAG, auth: read,
      summary: "List a report's runs", description: 'Newest first by default (sort=created_on).',
      params: reportParams, query: runListQuery, response: runList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const report = reportDef(params.id);
        const page = await listReportRuns(ctx.db, ctx.organisationId, report.id, listArgs(query, { created_on: 'createdAt' }));
        return contentPage(query, page.rows.map(presentRun), page.total);
      },
    }),
    route({
      method: 'get', path: '/reports/{id}/runs/{run_id}', operationId: 'getReportRun', tag: TAG, auth: read,
      summary: 'Get a report run', description: 'State PENDING, RUNNING, SENT or FAILED; row_count and byte_count once SENT, error once FAILED.',
      params: runParams, response: runItem, errors: [404],
      handler: async ({ ctx, params }) => presentRun(await getReportRun(ctx.db, ctx.organisationId, reportDef(params.id).id, params.run_id)),
    }),
  ];
}
