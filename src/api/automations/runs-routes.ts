// An automation's run history (docs/automations.md "Run history"): one item per event the
// automation ran for, with each action's outcome, read from the runs' adaptor action records.
import type { z } from 'zod';
import { listRuns, type AutomationRun } from '../../domain/automations/runs';
import { contentPage, offsetOf } from '../lists';
import { epoch } from '../present';
import { route, type RouteDef } from '../route';
import { idParams } from '../validation';
import { runList, runListQuery, type runItem } from './schemas';

export function presentRun(run: AutomationRun): z.input<typeof runItem> {
  return {
    id: run.eventId,
    event: { id: run.eventId, type: run.eventType, occurred_on: epoch(run.occurredAt) },
    entity: run.entity,
    state: run.state,
    reason: run.reason,
    workflow_id: run.workflowId,
    started_on: epoch(run.startedAt),
    updated_on: epoch(run.updatedAt),
    actions: run.steps.map((s) => ({
      order: s.order,
      automation_action_id: s.actionId,
      adaptor: s.adaptor,
      adaptor_action: s.adaptorAction,
      status: s.status,
      reason: s.reason,
      record_id: s.recordId,
      record_attributes: s.attributes,
      created_on: epoch(s.createdAt),
    })),
  };
}

export function runRoutes(tag: string, auth: { scope: 'automations:read' }): RouteDef[] {
  return [
    route({
      method: 'get', path: '/automations/{id}/runs', operationId: 'listAutomationRuns', tag, auth,
      summary: "List an automation's runs",
      description:
        'One item per event the automation ran for, newest event first (order ASC: oldest first), with each action it reached in order: its outcome, ' +
        'why it was skipped or failed, and its adaptor action record. A run appears with its first action record, within moments of its event; ' +
        'runs stay listed as long as their records (after the automation is deleted, through the records only). ' +
        'state is derived from the records: a run whose workflow failed in Temporal before finishing shows what it recorded (see the Temporal UI: workflow_id).',
      params: idParams, query: runListQuery, response: runList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const page = await listRuns(ctx.sql, params.id, { skip: offsetOf(query), take: query.size, direction: query.order });
        return contentPage(query, page.rows.map(presentRun), page.total);
      },
    }),
  ];
}
