// A webhook action's step (the usual automation) in one statement, which is one transaction: the
// webhook request (the row createWebhookRequest writes), the action's record, and the request's
// delivery intent, held for the run's own first attempt (docs/automations.md "What a run costs").
// All three or none. A retried call writes nothing (the request's cause key and the record's key
// are taken) and finds the record the first call wrote.
import type { OrgSql } from '../../db/sql';
import { intentValues } from '../../temporal/intents';
import type { Config } from '../../config';
import { newId } from '../ids';
import { WEBHOOK_COLUMNS, type AttemptRequest } from '../webhooks/delivery';
import { requestBody, webhookDelivery } from '../webhooks/requests';
import type { StepWebhookRequest } from './actions/define';
import type { RunContext } from './actions/run-context';
import { recordAttribute, type RecordAttribute } from './records';

// $2-$13 the request, $14-$21 the record, $22-$30 the intent.
const STEP = `WITH hook AS (
  SELECT * FROM webhooks WHERE organisation_id = $1 AND id = $2::uuid),
request AS (
  INSERT INTO webhook_requests (id, organisation_id, webhook_id, webhook_name, method, url_endpoint, url_auth, type, body,
    automation_id, automation_name, entity_type, entity_id, entity_reference, call_id, cause_key, created_at, updated_at)
  SELECT $3::uuid, $1, id, name, method, url_endpoint, url_auth, $4, $5::jsonb, $6::uuid, $7, $8, $9::uuid, $10, $11::uuid, $12, $13::timestamptz, now()
  FROM hook
  ON CONFLICT (organisation_id, cause_key) DO NOTHING
  RETURNING id, body),
record AS (
  INSERT INTO adaptor_action_records (id, organisation_id, automation_id, automation_name, action_id, adaptor, adaptor_action,
    event_id, event_type, entity_type, entity_id, entity_reference, status, attributes, workflow_id, updated_at)
  SELECT $14::uuid, $1, $6::uuid, $7, $15::uuid, $16, $17, $18::uuid, $19, $8, $9::uuid, $10, 'COMPLETED', $20::jsonb, $21, now()
  FROM request
  ON CONFLICT (event_id, automation_id, action_id) DO NOTHING
  RETURNING id),
intent AS (
  INSERT INTO workflow_intents (id, organisation_id, kind, workflow_type, workflow_id, input, search_attributes, signal_name, signal_args, traceparent, claimed_until)
  SELECT $22::uuid, $1, $23, $24, $25, $26::jsonb, $27::jsonb, $28, $29::jsonb, $30, now() + make_interval(secs => $31::int)
  FROM request)
SELECT hook.id IS NOT NULL AS hook, (SELECT id FROM record) AS record_id, (SELECT body FROM request),
  hook.method, hook.url_endpoint AS "urlEndpoint", hook.url_auth AS "urlAuth", ${WEBHOOK_COLUMNS('hook')}
FROM (SELECT 1) one LEFT JOIN hook ON true`;

export type WebhookStepResult =
  /** Written now: the record's id and attributes, and the request as its first attempt reads it. */
  | { written: true; recordId: string; attributes: RecordAttribute[]; request: AttemptRequest }
  /** Nothing written: the webhook is not the organisation's (`hook` false), or a first call wrote it all. */
  | { written: false; hook: boolean };

/**
 * `request`: the action's (its performer's); `holdSeconds`: null when the run makes no first
 * attempt (the delivery workflow makes them all).
 */
export async function writeWebhookStep(
  sql: OrgSql, config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE'>, ctx: RunContext, request: StepWebhookRequest, holdSeconds: number | null,
): Promise<WebhookStepResult> {
  const requestId = newId();
  const attributes = [
    recordAttribute('webhook_request_id', 'Webhook request', 'STRING', requestId),
    recordAttribute('webhook_id', 'Webhook', 'STRING', request.webhookId),
  ];
  const recordId = newId();
  // Found with their run by its automation and entity.
  const refs = { automationId: ctx.automation.id, entityType: ctx.entity.type, entityId: ctx.entity.id };
  // The body as jsonb keeps it (its key order), so that every attempt sends the same bytes.
  const [row] = await sql.rows<Omit<AttemptRequest, 'id'> & { hook: boolean; record_id: string | null }>(STEP, [
    request.webhookId, requestId, request.type, JSON.stringify(requestBody(requestId, request)),
    ctx.automation.id, ctx.automation.name, ctx.entity.type, ctx.entity.id, ctx.entity.reference, request.callId, request.causeKey, request.createdOn,
    recordId, ctx.step.actionId, ctx.step.adaptor, ctx.step.adaptorAction, ctx.event.id, ctx.event.type, JSON.stringify(attributes), ctx.workflowId,
    ...intentValues(webhookDelivery(config, ctx.organisationId, requestId, refs)), holdSeconds,
  ]);
  const { hook, record_id: written, ...webhook } = row;
  if (written) return { written: true, recordId: written, attributes, request: { ...webhook, id: requestId } };
  return { written: false, hook };
}
