// Analytics (spec 4.9 and 4.1; docs/analytics.md): counts per bucket for the organisation or a
// unit of its network, and a contact's counts per calendar period. Reads only, scope reports.
import { contactAnalytics, CONTACT_METRICS } from '../../domain/analytics/contact';
import { organisationAnalytics } from '../../domain/analytics/organisation';
import type { Db } from '../../db/client';
import { contactParams } from '../contacts/schemas';
import { groupAuth, route, type RouteDef } from '../route';
import { idParams } from '../validation';
import { presentOrganisationSeries } from './present';
import { contactAnalyticsQuery, contactAnalyticsResponse, organisationAnalyticsQuery, organisationAnalyticsResponse } from './schemas';

const TAG = 'Analytics';
const { read } = groupAuth('reports');

export function analyticsRoutes(): RouteDef[] {
  return [
    route({
      method: 'get', path: '/organisations/{id}/analytics', operationId: 'getOrganisationAnalytics', tag: TAG, auth: read,
      summary: 'Series of purchases, visits, offers, transactions, products, awards and wallets per hour, day or month',
      description:
        "{id} is a unit of the business network, or the organisation's own id for the whole organisation. Every bucket of the window is present, zeros included; " +
        'timestamp is the epoch second at which the bucket starts in the organisation\'s time zone. At most 1,000 buckets (400 naming from) and 100 organisations (400 naming include_children). ' +
        'wallets only for the organisation\'s own id. Definitions in docs/analytics.md.',
      params: idParams, query: organisationAnalyticsQuery, response: organisationAnalyticsResponse, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const q = { metrics: query.metrics, from: query.from, to: query.to, granularity: query.granularity, includeChildren: query.include_children ?? false };
        const items = await (ctx.db as unknown as Db).$transaction((tx) => organisationAnalytics(tx, ctx.organisationId, params.id, q), { maxWait: 10_000, timeout: 30_000 });
        return { content: items.map(presentOrganisationSeries) };
      },
    }),
    route({
      method: 'get', path: '/contacts/{id}/analytics', operationId: 'getContactAnalytics', tag: TAG, auth: read,
      summary: "The contact's visits, awards and transactions in the current hour, day, week, month, quarter, semester and year, and last month",
      description:
        "Calendar periods of the organisation's time zone containing now (weeks start on Monday; semesters are January-June and July-December). " +
        '{id} is the contact GUID or code. Definitions in docs/analytics.md.',
      params: contactParams, query: contactAnalyticsQuery, response: contactAnalyticsResponse, errors: [404],
      handler: ({ ctx, params, query }) => contactAnalytics(ctx.sql, params.id, query.metrics ?? CONTACT_METRICS),
    }),
  ];
}
