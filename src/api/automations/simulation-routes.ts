// An automation's simulations and performance (docs/automations.md "Simulations", "Performance"):
// what it would do for one record (RECORD, answered at once) or over a window of history (HISTORY,
// a replay in Temporal), performing nothing; and how the live one did, from its runs' records.
import { z } from 'zod';
import type { AutomationSimulation } from '../../db/client';
import { clientOf } from '../../db/read-only';
import { WRITE_TRANSACTION } from '../../db/transaction';
import { actorOf } from '../../domain/audit';
import { automationPerformance } from '../../domain/automations/performance';
import { simulateRecord } from '../../domain/automations/simulation';
import { cancelSimulation, createSimulation, getSimulation, listSimulations, type StoredSummary } from '../../domain/automations/simulations';
import { contentPage, listArgs } from '../lists';
import { epoch } from '../present';
import { route, type RouteDef } from '../route';
import { idParams, idResponse, zId } from '../validation';
import * as s from './simulation-schemas';

const simulationParams = z.object({ id: zId, simulation_id: zId });

export function presentSimulation(row: AutomationSimulation): z.input<typeof s.simulationItem> {
  const summary = row.summary as unknown as StoredSummary;
  return {
    id: row.id,
    mode: 'HISTORY',
    automation_id: row.automationId,
    from_date: epoch(row.fromDate),
    to_date: epoch(row.toDate) - 1,
    state: row.state as (typeof s.SIMULATION_STATES)[number],
    progress: { events_done: row.eventsDone, events_total: row.eventsTotal },
    summary: {
      events: summary.events ?? 0,
      would_run: summary.would_run ?? 0,
      by_action: Object.entries(summary.by_action ?? {}).sort(([, a], [, b]) => a.order - b.order).map(([id, a]) => ({
        id, order: a.order, adaptor_action: a.adaptor_action, would_run: a.would_run, skipped: a.skipped, would_fail: a.would_fail,
        skip_reasons: Object.entries(a.skip_reasons).sort(([ra, a1], [rb, b1]) => b1 - a1 || ra.localeCompare(rb)).map(([reason, count]) => ({ reason, count })),
      })),
      by_day: Object.entries(summary.by_day ?? {}).map(([day, d]) => ({ timestamp: Number(day), ...d })).sort((a, b) => a.timestamp - b.timestamp),
    },
    samples: row.samples as z.input<typeof s.simulationItem>['samples'],
    error: row.error,
    created_on: epoch(row.createdAt),
    completed_on: row.completedAt ? epoch(row.completedAt) : null,
  };
}

export function simulationRoutes(tag: string, auth: { read: { scope: 'automations:read' }; write: { scope: 'automations:write' } }): RouteDef[] {
  return [
    route({
      method: 'post', path: '/automations/{id}/simulations', operationId: 'simulateAutomation', tag, auth: auth.write,
      summary: 'Simulate an automation on one record or over history',
      description:
        'Works on INACTIVE and ACTIVE automations, with the sequence as saved now, and performs nothing: no webhook request, communication, e-mail, ' +
        'action record, outbox event or workflow intent is written and no request leaves the service (the effects are rendered, not sent). ' +
        'RECORD mode ({entity_id, event?}): 200 with the verdict, each action\'s filters with the event\'s actual values and the effect it would have; ' +
        'the event is rebuilt from the record as it is now (a contact by id or code). Unknown record: 400 naming entity_id. ' +
        'HISTORY mode ({from_date, to_date}): 202 {id}; the replay runs as a Temporal workflow (automation-simulation:<id>) over the events of the ' +
        "automation's type in the window, rebuilt from the records that raised them; GET .../simulations/{simulation_id} shows its progress and summary.",
      params: idParams, body: s.simulationBody, response: s.recordSimulation, errors: [404],
      also: { status: 202, response: idResponse, description: 'HISTORY: the replay is accepted', when: (r) => !(r as { mode?: string }).mode },
      example: { entity_id: 'C-1001' },
      // RECORD writes nothing (its reads run in a read-only transaction); HISTORY opens its own.
      transaction: false,
      handler: async ({ ctx, params, body }) => {
        if (body.entity_id !== undefined) {
          return { mode: 'RECORD' as const, runs: [await simulateRecord(ctx.db, ctx.organisationId, params.id, body.entity_id, body.event)] };
        }
        const accepted = await clientOf(ctx.db).$transaction((tx) => createSimulation(tx, actorOf(ctx), params.id, body.from_date!, body.to_date!), WRITE_TRANSACTION);
        // The 202 answer (`also`), which the handler's type, the 200 one's, does not name.
        return accepted as never;
      },
    }),
    route({
      method: 'get', path: '/automations/{id}/simulations', operationId: 'listAutomationSimulations', tag, auth: auth.read,
      summary: "List an automation's history simulations", description: 'Newest first (order ASC: oldest first).',
      params: idParams, query: s.simulationListQuery, response: s.simulationList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const page = await listSimulations(ctx.db, ctx.organisationId, params.id, listArgs(query, { created_on: 'createdAt' }));
        return contentPage(query, page.rows.map(presentSimulation), page.total);
      },
    }),
    route({
      method: 'get', path: '/automations/{id}/simulations/{simulation_id}', operationId: 'getAutomationSimulation', tag, auth: auth.read,
      summary: 'Get a history simulation',
      description: 'Its state, progress (events_done of events_total), summary (by action with skip reasons, by UTC day) and up to 20 samples in the RECORD shape.',
      params: simulationParams, response: s.simulationItem, errors: [404],
      handler: async ({ ctx, params }) => presentSimulation(await getSimulation(ctx.db, ctx.organisationId, params.id, params.simulation_id)),
    }),
    route({
      method: 'post', path: '/automations/{id}/simulations/{simulation_id}/cancel', operationId: 'cancelAutomationSimulation', tag, auth: auth.write,
      summary: 'Cancel a history simulation',
      description:
        'A RUNNING replay becomes CANCELLED at once and stops at its next page (its summary so far stays). One that already ended keeps its state, ' +
        'which the answer says (a cancel that crosses the replay\'s end is no error). Cancelling its workflow in the Temporal UI also ends it CANCELLED.',
      params: simulationParams, response: s.cancelResponse, errors: [404],
      handler: async ({ ctx, params }) => ({ id: params.simulation_id, state: await cancelSimulation(ctx.db, actorOf(ctx), params.id, params.simulation_id) }),
    }),
    route({
      method: 'get', path: '/automations/{id}/performance', operationId: 'getAutomationPerformance', tag, auth: auth.read,
      summary: 'How an automation performed',
      description:
        'From the records its runs wrote, per bucket of the event\'s time (DAY or HOUR, UTC): the runs by state (as GET .../runs derives it), ' +
        "each action's matched (a record other than SKIPPED) and skipped counts, and the seconds from the event to each COMPLETED record (p50, p95).",
      params: idParams, query: s.performanceQuery, response: s.performance, errors: [404],
      handler: async ({ ctx, params, query }) => automationPerformance(ctx.db, ctx.sql, ctx.organisationId, params.id, query.from_date, query.to_date, query.granularity),
    }),
  ];
}
