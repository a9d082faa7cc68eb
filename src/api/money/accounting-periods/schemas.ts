// Accounting periods (spec 2.3 financials: accounting_period_id, opening_balance).
import { z } from 'zod';
import { contentList } from '../../lists';
import { pagingQuery, whenParsed, zEpoch } from '../../validation';

export const PERIOD_STATES = ['OPEN', 'CLOSED'] as const;

const name = z.string().trim().min(1).max(200);
const startDate = zEpoch.meta({ description: 'First second of the period (epoch seconds, inclusive).' });
const endDate = zEpoch.meta({ description: 'End of the period (epoch seconds, exclusive): the next period may start here.' });

export const periodCreateBody = z
  .strictObject({ name, start_date: startDate, end_date: endDate })
  .refine((p) => p.start_date < p.end_date, { path: ['end_date'], message: 'must be later than start_date', ...whenParsed });

/** Partial; only an OPEN period changes. The state changes only through /close. */
export const periodUpdateBody = z.strictObject({ name: name.optional(), start_date: startDate.optional(), end_date: endDate.optional() });

export const periodListQuery = pagingQuery(['start_date', 'name', 'created_on']).extend({
  state: z.enum(PERIOD_STATES).optional(),
});

export const periodItem = z.object({
  id: z.string(),
  name: z.string(),
  start_date: z.number().int(),
  end_date: z.number().int(),
  state: z.enum(PERIOD_STATES),
  closed_on: z.number().int().nullable(),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});

export const periodList = contentList(periodItem);
