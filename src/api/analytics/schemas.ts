// GET /organisations/{id}/analytics and GET /contacts/{id}/analytics (spec 4.9, 4.1;
// docs/analytics.md). Spec's own spellings organisationId and organisationName.
import { z } from 'zod';
import { CONTACT_METRICS, PERIODS } from '../../domain/analytics/contact';
import { ORGANISATION_METRICS } from '../../domain/analytics/organisation';
import { GRANULARITIES } from '../../domain/analytics/window';
import { zBool, zEpochQuery, zAnyCase } from '../validation';

/** A comma-separated subset of `names`, each once, in the order given. */
function metricList<const M extends readonly [string, ...string[]]>(names: M) {
  return z
    .string()
    .transform((v, ctx) => {
      const asked = [...new Set(v.split(',').map((m) => m.trim().toLowerCase()).filter(Boolean))];
      const unknown = asked.filter((m) => !names.includes(m));
      if (unknown.length || !asked.length) {
        ctx.addIssue({ code: 'custom', message: `${unknown.length ? `unknown metric ${unknown.join(', ')}` : 'no metric'}: comma-separated from ${names.join(', ')}` });
        return z.NEVER;
      }
      return asked as Array<M[number]>;
    })
    .optional()
    .meta({
      description: `Comma-separated, from ${names.join(', ')} (any case; one named twice counts once). Default: all.`,
      pattern: `^ *(?:${names.join('|')}) *(?:, *(?:${names.join('|')}) *)*$`,
    });
}

export const organisationAnalyticsQuery = z.strictObject({
  metrics: metricList(ORGANISATION_METRICS),
  from: zEpochQuery.optional().meta({ description: 'Start of the window, epoch seconds (inclusive). Default: to minus 24 hours (HOUR), 30 days (DAY) or 365 days (MONTH).' }),
  to: zEpochQuery.optional().meta({ description: 'End of the window, epoch seconds (inclusive). Default: now.' }),
  granularity: zAnyCase(GRANULARITIES)
    .default('DAY')
    .meta({ description: 'HOUR, DAY or MONTH in the organisation\'s time zone (settings time_zone). Default DAY.' }),
  include_children: zBool.optional().meta({ description: 'true: one more item per unit below the organisation, and each item counts the units below it too.' }),
});

const series = z.array(z.object({ timestamp: z.number().int(), number: z.number() }));
const metricSeries = Object.fromEntries(ORGANISATION_METRICS.map((m) => [m, series.optional()])) as Record<(typeof ORGANISATION_METRICS)[number], z.ZodOptional<typeof series>>;

export const organisationAnalyticsResponse = z.object({
  content: z.array(
    z.object({
      organisationId: z.string(),
      organisationName: z.string(),
      ...metricSeries,
    }),
  ),
});

export const contactAnalyticsQuery = z.strictObject({ metrics: metricList(CONTACT_METRICS) });

const periodCounts = z.object(Object.fromEntries(PERIODS.map((p) => [p, z.number().int()])) as Record<(typeof PERIODS)[number], z.ZodNumber>);

export const contactAnalyticsResponse = z.array(z.object({ name: z.enum(CONTACT_METRICS), values: periodCounts }));
