// An automation's simulations and performance (docs/automations.md "Simulations", "Performance").
import { z } from 'zod';
import { FILTER_OPERATORS } from '../../domain/automations/catalogue';
import { contentList } from '../lists';
import { pagingQuery, zEpoch, zEpochQuery } from '../validation';

/** A replay's window may span at most this many days (a year and a day: a leap year's whole year). */
export const MAX_WINDOW_DAYS = 366;

const zEventValue = z.union([z.string().max(2000), z.number(), z.boolean(), z.null(), z.array(z.union([z.string().max(200), z.number()])).max(100)]);

export const simulationBody = z.strictObject({
  entity_id: z.string().trim().min(1).max(100).optional().meta({
    description: "RECORD mode: a record of the automation's entity (a contact's id or code; a purchase's, wallet's, voucher's or communication's id). Unknown: 400 naming entity_id.",
  }),
  event: z.record(z.string(), zEventValue).optional().meta({
    description: "RECORD mode: attributes of the event by their codes (GET /automation_events), overriding what the record gives, e.g. {\"AMOUNT\": 120}. An attribute the entity's events do not carry: 400 naming event.<code>.",
  }),
  from_date: zEpoch.optional().meta({ description: 'HISTORY mode: the window\'s start (inclusive), epoch seconds.' }),
  to_date: zEpoch.optional().meta({ description: `HISTORY mode: the window's end (inclusive second), epoch seconds; at most ${MAX_WINDOW_DAYS} days after from_date.` }),
}).superRefine((b, ctx) => {
  const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
  const history = b.from_date !== undefined || b.to_date !== undefined;
  if (b.entity_id === undefined && !history) return issue('entity_id', 'give entity_id (RECORD mode) or from_date and to_date (HISTORY mode)');
  if (b.entity_id !== undefined && history) return issue(b.from_date !== undefined ? 'from_date' : 'to_date', 'entity_id (RECORD mode) and a window (HISTORY mode) do not go together');
  if (b.event !== undefined && b.entity_id === undefined) return issue('event', 'event overrides a record: only with entity_id');
  if (!history) return;
  if (b.from_date === undefined) return issue('from_date', 'required with to_date');
  if (b.to_date === undefined) return issue('to_date', 'required with from_date');
  if (b.to_date < b.from_date) return issue('to_date', 'must not be before from_date');
  if (b.to_date - b.from_date > MAX_WINDOW_DAYS * 86_400) issue('to_date', `the window spans at most ${MAX_WINDOW_DAYS} days`);
});

const filterVerdict = z.object({
  id: z.string(),
  group: z.number().int().meta({ description: 'The filter group (0-based): an action runs when all filters of any group pass.' }),
  attribute: z.string(),
  operator: z.enum(FILTER_OPERATORS),
  value: z.union([z.string(), z.number(), z.boolean()]).nullable(),
  value_list: z.array(z.union([z.string(), z.number()])).nullable(),
  actual: z.unknown().meta({ description: "The event's value at the attribute; null when it carries none (such a filter never passes)." }),
  passed: z.boolean(),
});

const effect = z.looseObject({
  kind: z.string().meta({ description: 'WEBHOOK {webhook_id, method, url, body}; COMMUNICATION {channel, recipient, subject, content, rich_content, language, integration_id}; EMAIL {recipient, subject, content}; APPROVAL {status, timeout_on, approver_user_id, approval_entity_type}; CONTENT_UPDATE {contact_id, custom_field_key, custom_field_value, previous_value}; SEGMENT_MEMBERSHIP {contact_id, segment_id, segment_name, already_member}; ASSIGNMENT {assignee}.' }),
}).meta({ description: 'What the action would send or write, rendered exactly as its run renders it, and not performed.' });

export const actionVerdict = z.object({
  id: z.string().meta({ description: 'The sequence item (GET /automations/{id}/actions).' }),
  order: z.number().int(),
  adaptor: z.string(),
  adaptor_action: z.string(),
  verdict: z.enum(['WOULD_RUN', 'SKIPPED', 'WOULD_FAIL']).meta({
    description: 'WOULD_RUN: its filters pass and it would do its work. SKIPPED: filters not met, the contact opted out, or an earlier action would fail (NOT_REACHED). WOULD_FAIL: its run would record FAILED (the webhook is gone, the contact anonymized) and stop.',
  }),
  filters: z.array(filterVerdict),
  reason: z.string().nullable().meta({ description: 'Why it would not run: the reason its record would carry.' }),
  effect: effect.nullable(),
});

export const runVerdict = z.object({
  entity: z.object({ type: z.string(), id: z.string() }),
  event: z.object({
    type: z.string(),
    occurred_on: z.number().int().meta({ description: 'The event\'s time: now for RECORD, the record\'s for HISTORY.' }),
    contact_id: z.string().nullable().meta({ description: 'The contact the event is about.' }),
  }),
  would_run: z.boolean().meta({ description: 'At least one action would do its work.' }),
  actions: z.array(actionVerdict),
});

export const recordSimulation = z.object({
  mode: z.literal('RECORD'),
  runs: z.array(runVerdict),
});

export const SIMULATION_STATES = ['RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;

const count = z.number().int();

export const simulationItem = z.object({
  id: z.string(),
  mode: z.literal('HISTORY'),
  automation_id: z.string(),
  from_date: z.number().int(),
  to_date: z.number().int(),
  state: z.enum(SIMULATION_STATES),
  progress: z.object({
    events_done: count,
    events_total: count.nullable().meta({ description: 'Counted when the replay starts; null until then.' }),
  }),
  summary: z.object({
    events: count,
    would_run: count.meta({ description: 'Events for which at least one action would run.' }),
    by_action: z.array(z.object({
      id: z.string(),
      order: z.number().int(),
      adaptor_action: z.string(),
      would_run: count,
      skipped: count,
      would_fail: count,
      skip_reasons: z.array(z.object({ reason: z.string(), count })).meta({ description: 'Most frequent first; the reasons records carry (no personal data).' }),
    })),
    by_day: z.array(z.object({ timestamp: z.number().int().meta({ description: 'The UTC day\'s start, epoch seconds.' }), events: count, would_run: count })),
  }),
  samples: z.array(runVerdict).meta({ description: 'The first 20 events of the window, judged as in RECORD mode.' }),
  error: z.string().nullable().meta({ description: 'Why a FAILED replay failed; for CANCELLED, who cancelled it.' }),
  created_on: z.number().int(),
  completed_on: z.number().int().nullable(),
});

export const simulationList = contentList(simulationItem);

export const cancelResponse = z.object({
  id: z.string(),
  state: z.enum(SIMULATION_STATES).meta({ description: 'CANCELLED; or the state it had already ended in (COMPLETED, FAILED, CANCELLED), which stays.' }),
});
export const simulationListQuery = pagingQuery(['created_on']);

export const GRANULARITIES = ['DAY', 'HOUR'] as const;

export const performanceQuery = z.strictObject({
  from_date: zEpochQuery.optional().meta({ description: 'Runs whose event is at or after this second; default: 30 days before to_date.', example: '1796083200' }),
  to_date: zEpochQuery.optional().meta({ description: 'Runs whose event is at or before this second (inclusive); default: now.', example: '1798761599' }),
  granularity: z.enum(GRANULARITIES).default('DAY'),
}).transform((q) => {
  const to = q.to_date ?? Math.floor(Date.now() / 1000);
  return { ...q, to_date: to, from_date: q.from_date ?? to - 30 * 86_400 };
}).superRefine((q, ctx) => {
  if (q.to_date < q.from_date) ctx.addIssue({ code: 'custom', path: ['to_date'], message: 'must not be before from_date' });
  else if (q.to_date - q.from_date > MAX_WINDOW_DAYS * 86_400) ctx.addIssue({ code: 'custom', path: ['to_date'], message: `the window spans at most ${MAX_WINDOW_DAYS} days` });
});

const latency = z.object({
  p50: z.number().nullable().meta({ description: 'Seconds from the event to the effect (a COMPLETED record), median; null without one.' }),
  p95: z.number().nullable(),
});

export const performance = z.object({
  automation_id: z.string(),
  granularity: z.enum(GRANULARITIES),
  buckets: z.array(z.object({
    timestamp: z.number().int().meta({ description: 'The bucket\'s start (UTC), epoch seconds.' }),
    runs: z.object({ COMPLETED: count, SKIPPED: count, FAILED: count, REJECTED: count, WAITING_FOR_APPROVAL: count }),
    actions: z.array(z.object({ id: z.string(), adaptor_action: z.string(), matched: count, skipped: count })),
    event_to_effect: latency,
  })),
});
