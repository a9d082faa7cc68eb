// Communication plans (spec 2.10, 4.7; issue 9 part 4). Decisions: docs/communications.md "Plans".
// Each write records the plan workflow's news in its transaction (src/domain/webhooks/requests.ts).
import { actorOf } from '../../../domain/audit';
import { createPlan, deletePlan, getPlan, listPlans, updatePlan } from '../../../domain/communications/plans';
import type { AppDeps } from '../../deps';
import { COMMUNICATIONS_TAG as TAG, publicRead, publicWrite } from '../integrations/routes';
import { contentPage, listArgs } from '../../lists';
import { route, type RouteDef } from '../../route';
import { idParams, idResponse } from '../../validation';
import { PLAN_SORT, presentPlan, presentPlanListItem } from './present';
import { planCreateBody, planItem, planList, planListQuery, planUpdateBody } from './schemas';

const SCHEDULE_NOTE =
  'frequency: a cron expression in UTC, 5 fields or 6 with seconds (else 400 naming frequency). While POSTED, the plan workflow ' +
  '(id communication-plan:<id>) sends at each tick between start_date and end_date one communication per contact of the segments, ' +
  'in preferred_channel, skipping contacts who opted out of it, are anonymized or have no address for it. Ticks missed while the ' +
  'service was down are sent once, as the latest. PUT signals the workflow; DRAFT or DELETE ends it. A plan a public key leaves POSTED must tick no more often ' +
  'than the organisation\'s public_plan_min_interval_minutes (GET /communication_limits; default 1440): else 403 naming frequency. Each tick counts against the ' +
  'channel\'s hourly quota: contacts past it get their communication FAILED with a failure_reason starting quota:, and are not sent that tick.';

export function planRoutes(deps: AppDeps): RouteDef[] {
  return [
    route({
      method: 'post', path: '/communication_plans', operationId: 'createCommunicationPlan', tag: TAG, auth: publicWrite,
      summary: 'Create a communication plan', description: SCHEDULE_NOTE,
      body: planCreateBody, response: idResponse, errors: [403, 503],
      example: {
        name: 'Monday newsletter', start_date: 1767225600, end_date: 1798761600, preferred_channel: 'EMAIL', frequency: '0 9 * * 1',
        segments: ['0b7c1f9e-3f0e-4b8e-9a51-6d2f4c7e8a10'], life_cycle_state: 'POSTED',
        contents: [{ language: 'eng', subject: 'This week, {{contact.first_name}}', plain_content: 'Dear {{contact.first_name}}, ...' }],
      },
      // The answer follows the workflow's start (or signal): a client may look at it at once.
      waitForDispatch: true,
      handler: async ({ ctx, body }) => {
        const { id } = await createPlan(ctx.db, actorOf(ctx), body, { publicKey: ctx.actor.kind === 'PUBLIC' });
        return { id };
      },
    }),
    route({
      method: 'get', path: '/communication_plans', operationId: 'listCommunicationPlans', tag: TAG, auth: publicRead,
      summary: 'List communication plans', description: 'Filters: name (contains), life_cycle_state. Sortable by name, start_date, created_on (default: newest first).',
      query: planListQuery, response: planList,
      handler: async ({ ctx, query }) => {
        const page = await listPlans(ctx.db, ctx.organisationId, listArgs(query, PLAN_SORT), { name: query.name, lifeCycleState: query.life_cycle_state });
        return contentPage(query, page.rows.map(presentPlanListItem), page.total);
      },
    }),
    route({
      method: 'get', path: '/communication_plans/{id}', operationId: 'getCommunicationPlan', tag: TAG, auth: publicRead,
      summary: 'Get a communication plan', params: idParams, response: planItem, errors: [404],
      handler: async ({ ctx, params }) => presentPlan(await getPlan(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/communication_plans/{id}', operationId: 'updateCommunicationPlan', tag: TAG, auth: publicWrite,
      summary: 'Update a communication plan',
      description: `Partial: only the fields given change; arrays given replace the stored ones. A move to POSTED, or a new frequency, start_date or end_date while POSTED, counts ticks from now. ${SCHEDULE_NOTE}`,
      params: idParams, body: planUpdateBody, response: idResponse, errors: [403, 404, 503],
      example: { frequency: '*/30 * * * *' },
      // The answer follows the workflow's start (or signal): a client may look at it at once.
      waitForDispatch: true,
      handler: async ({ ctx, params, body }) => {
        await updatePlan(ctx.db, actorOf(ctx), params.id, body, { publicKey: ctx.actor.kind === 'PUBLIC' });
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/communication_plans/{id}', operationId: 'deleteCommunicationPlan', tag: TAG, auth: publicWrite,
      summary: 'Delete a communication plan',
      description: 'Ends its workflow. Its communications stay (history), no longer linked; those of a tick not yet sent become FAILED.',
      params: idParams, response: idResponse, errors: [404, 503],
      // The answer follows the workflow's start (or signal): a client may look at it at once.
      waitForDispatch: true,
      handler: async ({ ctx, params }) => {
        await deletePlan(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
