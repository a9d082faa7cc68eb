// Communication plans (spec 2.10, 4.7; docs/communications.md "Plans"): contents sent to the
// contacts of segments at each tick of a cron frequency while POSTED.
import { z } from 'zod';
import { CHANNELS } from '../../../domain/communications/integration-settings';
import { frequencyProblem } from '../../../domain/communications/schedule';
import { templateContents } from '../templates/schemas';
import { contentList, nameCodeQuery } from '../../lists';
import { documentedRule, pagingQuery, whenParsed, zEpoch, zId, zRefName } from '../../validation';

export const PLAN_STATES = ['DRAFT', 'POSTED'] as const;

const frequency = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .superRefine((value, ctx) => {
    const problem = frequencyProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }, whenParsed)
  // The pattern states the fields' shape in digits and * , / -; names (MON, JAN) are taken too.
  .meta({ description: 'Cron expression in UTC: 5 fields (minute hour day-of-month month day-of-week), or 6 with seconds first; names such as MON and JAN are taken too.', example: '0 9 * * 1', pattern: '^ *[0-9*,/-]+(?: +[0-9*,/-]+){4,5} *$' });

/** The plan refuses an id listed twice (src/domain/communications/plans.ts). */
const ids = (what: string) => documentedRule(z.array(zId).max(50), { uniqueItems: true }).meta({ description: `Ids of ${what}; each at most once.` });

const fields = {
  name: zRefName,
  start_date: zEpoch.meta({ description: 'Epoch seconds; the first tick counted is at or after it.' }),
  end_date: zEpoch.nullish().meta({ description: 'Epoch seconds; the last tick counted is at or before it. Absent: no end.' }),
  preferred_channel: z.enum(CHANNELS),
  segments: ids('segments whose contacts receive the plan').min(1),
  contents: templateContents,
  integrations: ids('integrations, at most one per channel; absent for a channel: the organisation\'s oldest of it (EMAIL: else the SYSTEM mailer)'),
  frequency,
  life_cycle_state: z.enum(PLAN_STATES).meta({ description: 'DRAFT (default) or POSTED: POSTED starts the plan workflow; DRAFT or DELETE ends it.' }),
};

export const planCreateBody = z.strictObject({
  ...fields,
  end_date: fields.end_date,
  integrations: fields.integrations.optional(),
  life_cycle_state: fields.life_cycle_state.optional(),
});

/** Partial; arrays given replace the stored ones. */
export const planUpdateBody = z.strictObject({
  name: fields.name.optional(),
  start_date: fields.start_date.optional(),
  end_date: fields.end_date,
  preferred_channel: fields.preferred_channel.optional(),
  segments: fields.segments.optional(),
  contents: fields.contents.optional(),
  integrations: fields.integrations.optional(),
  frequency: fields.frequency.optional(),
  life_cycle_state: fields.life_cycle_state.optional(),
});

export const planListQuery = pagingQuery(['name', 'start_date', 'created_on']).extend({
  name: nameCodeQuery.name,
  life_cycle_state: z.enum(PLAN_STATES).optional(),
});

const integrationRef = z.object({ id: z.string(), name: z.string(), channel: z.enum(CHANNELS) });

const listFields = {
  id: z.string(),
  name: z.string(),
  start_date: z.number().int(),
  end_date: z.number().int().nullable(),
  life_cycle_state: z.enum(PLAN_STATES),
  integrations: z.array(integrationRef),
  preferred_channel: z.enum(CHANNELS),
  frequency: z.string(),
  next_tick_on: z.number().int().nullable().meta({ description: 'Epoch seconds of the next tick while POSTED; null when DRAFT or past the end.' }),
};

export const planListItem = z.object(listFields);

export const planItem = z.object({
  ...listFields,
  segments: z.array(z.object({ id: z.string(), name: z.string() })),
  contents: z.array(z.object({ language: z.string(), subject: z.string().nullable(), rich_content: z.string().nullable(), plain_content: z.string().nullable() })),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const planList = contentList(planListItem);
