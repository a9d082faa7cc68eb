// Webhook requests (spec 2.9 request record, part 6; docs/webhooks.md): one row per thing to
// send, written in the transaction of its cause with its delivery's intent, then delivered by its
// workflow. The body is fixed at creation: every attempt sends the same one.
import type { Config } from '../../config';
import type { Prisma, Tx, WebhookAttempt, WebhookRequest } from '../../db/client';
import { txSql } from '../../db/sql';
import { recordIntent, type Intent } from '../../temporal/intents';
import { webhookRequestWorkflowId } from '../../workflows/contracts';
import { newId } from '../ids';
import { pageOf, searchWhere, within, type ListArgs, type ListPage } from '../lists';
import { found } from '../errors';
import { getWebhookRow } from './webhooks';

export interface WebhookRequestInput {
  webhookId: string; // unknown / other org → AppError notFound naming 'webhook_id'
  type: string; // body.type: the event type, or ORDER_PROVISION for point-of-sale adaptors
  data: Record<string, unknown>;
  callId?: string | null; // the bulk contact update's call id (body.call_id, column call_id)
  automation?: { id: string; name: string } | null;
  entity?: { type: string; id: string; reference?: string | null } | null;
  causeKey: string; // unique per organisation; a second call with the same key returns the first request
  createdOn?: Date; // body.created_on (epoch seconds); default now
}

/** The JSON every attempt sends. */
export interface WebhookBody {
  id: string;
  type: string;
  created_on: number;
  call_id?: string;
  data: Record<string, unknown>;
}

/** What a delivery is found by besides its organisation (a run's automation and entity). */
export interface DeliveryRefs {
  automationId?: string | null;
  entityType?: string | null;
  entityId?: string | null;
}

/** One delivery workflow per request (id `webhook-request:<request id>`): a repeat is a no-op. */
export function webhookDelivery(config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE'>, organisationId: string, requestId: string, refs: DeliveryRefs = {}): Intent {
  return {
    kind: 'start', workflow: 'webhookDeliveryWorkflow', workflowId: webhookRequestWorkflowId(requestId),
    input: { organisationId, requestId, scheduleMs: config.WEBHOOK_RETRY_SCHEDULE }, search: refs,
  };
}

/**
 * POST /webhooks/{id}/test: a WEBHOOK_TEST request with its delivery's intent, delivered like
 * any other. (An automation's webhook step writes its request, record and intent in one
 * statement: src/domain/automations/webhook-step.ts.)
 */
export async function sendTestRequest(tx: Tx, config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE'>, organisationId: string, webhookId: string): Promise<{ id: string }> {
  await getWebhookRow(tx, organisationId, webhookId); // the path's webhook: 404 without an attribute
  const input = { webhookId, type: 'WEBHOOK_TEST', data: { webhook_id: webhookId }, causeKey: `test:${newId()}` };
  const { id } = await createWebhookRequest(tx, organisationId, input);
  // Started by the dispatcher once this commits, so the workflow always finds its row.
  await recordIntent(txSql(tx, organisationId), webhookDelivery(config, organisationId, id));
  return { id };
}

/**
 * Writes the request PENDING with a snapshot of the webhook (name, method, url, auth kind) and
 * its body; the same causeKey again answers the first request (`created: false`). Its delivery
 * is the writer's intent (webhookDelivery) in the same transaction.
 */
export async function createWebhookRequest(tx: Tx, organisationId: string, input: WebhookRequestInput): Promise<{ id: string; created: boolean }> {
  const webhook = await getWebhookRow(tx, organisationId, input.webhookId, 'webhook_id');
  const id = newId();
  const body = requestBody(id, input);
  // ON CONFLICT DO NOTHING: a repeated cause neither fails the transaction nor writes twice.
  await tx.webhookRequest.createMany({
    data: [
      {
        id,
        organisationId,
        webhookId: webhook.id,
        webhookName: webhook.name,
        method: webhook.method,
        urlEndpoint: webhook.urlEndpoint,
        urlAuth: webhook.urlAuth,
        type: input.type,
        body: body as unknown as Prisma.InputJsonValue,
        automationId: input.automation?.id ?? null,
        automationName: input.automation?.name ?? null,
        entityType: input.entity?.type ?? null,
        entityId: input.entity?.id ?? null,
        entityReference: input.entity?.reference ?? null,
        callId: input.callId ?? null,
        causeKey: input.causeKey,
        createdAt: input.createdOn,
      },
    ],
    skipDuplicates: true,
  });
  const row = await tx.webhookRequest.findFirst({ where: { organisationId, causeKey: input.causeKey }, select: { id: true } });
  return { id: row!.id, created: row!.id === id };
}

/** What request `id` sends, fixed when it is written. */
export function requestBody(id: string, input: Pick<WebhookRequestInput, 'type' | 'data' | 'callId' | 'createdOn'>): WebhookBody {
  return {
    id,
    type: input.type,
    created_on: Math.floor((input.createdOn ?? new Date()).getTime() / 1000),
    ...(input.callId ? { call_id: input.callId } : {}),
    data: input.data,
  };
}

/** The body in its documented key order (jsonb keeps its own): what is signed and sent. */
export function bodyOf(stored: Prisma.JsonValue): WebhookBody {
  const b = stored as unknown as WebhookBody;
  return { id: b.id, type: b.type, created_on: b.created_on, ...(b.call_id ? { call_id: b.call_id } : {}), data: b.data };
}

export interface WebhookRequestFilter {
  searchValue?: string;
  webhookId?: string;
  urlEndpoint?: string;
  state?: string;
  callId?: string;
  automationId?: string;
  entityId?: string;
  createdFrom?: Date;
  /** Exclusive: the route passes the end of the inclusive `created_on_to` second. */
  createdBefore?: Date;
}

export async function listWebhookRequests(tx: Tx, organisationId: string, args: ListArgs, q: WebhookRequestFilter): Promise<ListPage<WebhookRequest>> {
  const where: Prisma.WebhookRequestWhereInput = {
    organisationId,
    webhookId: q.webhookId,
    state: q.state,
    callId: q.callId,
    automationId: q.automationId,
    entityId: q.entityId,
  };
  Object.assign(where, searchWhere(['webhookName', 'urlEndpoint'], q.searchValue));
  if (q.urlEndpoint !== undefined) where.urlEndpoint = within(q.urlEndpoint);
  if (q.createdFrom || q.createdBefore) where.createdAt = { gte: q.createdFrom, lt: q.createdBefore };
  return pageOf(tx.webhookRequest.findMany({ where, ...args }), tx.webhookRequest.count({ where }));
}

export type WebhookRequestRecord = WebhookRequest & { attempts: WebhookAttempt[] };

export async function getWebhookRequest(tx: Tx, organisationId: string, id: string): Promise<WebhookRequestRecord> {
  return found(await tx.webhookRequest.findFirst({ where: { organisationId, id }, include: { attempts: { orderBy: { attempt: 'asc' } } } }), 'Webhook request');
}

/**
 * A request still PENDING whose delivery will make no more attempts (its workflow was ended by an
 * operator) becomes FAILED with that reason; its attempts stay as they were logged.
 */
export async function failPendingRequest(tx: Tx, organisationId: string, id: string, reason: string): Promise<boolean> {
  const { count } = await tx.webhookRequest.updateMany({
    where: { organisationId, id, state: 'PENDING' },
    data: { state: 'FAILED', failureReason: reason.slice(0, 1000), completedAt: new Date() },
  });
  return count > 0;
}
