import type { z } from 'zod';
import type { OrganisationSeries } from '../../domain/analytics/organisation';
import type { organisationAnalyticsResponse } from './schemas';

type Item = z.input<typeof organisationAnalyticsResponse>['content'][number];

/** One item per organisation, its series under the metric's name (spec 4.9 shows `purchases`). */
export function presentOrganisationSeries(s: OrganisationSeries): Item {
  return { organisationId: s.organisationId, organisationName: s.organisationName, ...s.series };
}
