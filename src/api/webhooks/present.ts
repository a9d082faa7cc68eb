import type { z } from 'zod';
import type { WebhookRecord } from '../../domain/webhooks/webhooks';
import { bodyOf, type WebhookRequestRecord } from '../../domain/webhooks/requests';
import type { WebhookAttempt, WebhookRequest } from '../../db/client';
import type { SortField } from '../lists';
import { epoch } from '../present';
import type { webhookAttemptItem, webhookItem, webhookListItem, webhookRequestItem, webhookRequestRead } from './schemas';

type ListItem = z.input<typeof webhookListItem>;
type RequestItem = z.input<typeof webhookRequestItem>;

export const WEBHOOK_SORT: Record<string, SortField> = { name: 'name', url_endpoint: 'urlEndpoint', created_on: 'createdAt' };
export const WEBHOOK_REQUEST_SORT: Record<string, SortField> = { created_on: 'createdAt', state: 'state', retries: 'retries' };

/** List item: no secret; password and api_key are write-only everywhere. */
export function presentWebhookListItem(w: WebhookRecord): Omit<ListItem, 'secret_key'> {
  return {
    id: w.id,
    name: w.name,
    method: w.method as ListItem['method'],
    url_endpoint: w.urlEndpoint,
    url_auth: w.urlAuth as ListItem['url_auth'],
    username: w.username,
    has_password: w.password !== null,
    has_api_key: w.apiKey !== null,
    pending_requests: w.counts.pending,
    successful_requests: w.counts.success,
    failed_requests: w.counts.failed,
    created_on: epoch(w.createdAt),
    updated_on: epoch(w.updatedAt),
  };
}

/** A single read; the signing secret only for a reader who may write the webhook (schemas.ts). */
export function presentWebhook(w: WebhookRecord, withSecret: boolean): z.input<typeof webhookItem> {
  return {
    ...presentWebhookListItem(w),
    ...(withSecret ? { secret_key: w.secret } : {}),
    secret_key_active_until: epoch(w.secretActiveUntil),
    previous_secret_key_active_until: w.previousSecret ? epoch(w.previousSecretActiveUntil) : null,
  };
}

export function presentWebhookRequest(r: WebhookRequest): RequestItem {
  return {
    id: r.id,
    state: r.state as RequestItem['state'],
    method: r.method as RequestItem['method'],
    url_endpoint: r.urlEndpoint,
    url_auth: r.urlAuth as RequestItem['url_auth'],
    type: r.type,
    body: bodyOf(r.body) as unknown as Record<string, unknown>,
    response: r.responseBody,
    response_status: r.responseStatus,
    retries: r.retries,
    failure_reason: r.failureReason,
    webhook: { id: r.webhookId, name: r.webhookName },
    automation: r.automationId ? { id: r.automationId, name: r.automationName ?? '' } : null,
    entity: r.entityType ? { type: r.entityType, id: r.entityId, reference: r.entityReference } : null,
    call_id: r.callId,
    created_on: epoch(r.createdAt),
    completed_on: epoch(r.completedAt),
  };
}

function presentAttempt(a: WebhookAttempt): z.input<typeof webhookAttemptItem> {
  return {
    attempt: a.attempt,
    started_on: epoch(a.startedAt),
    duration_ms: a.durationMs,
    status_code: a.statusCode,
    response: a.responseBody,
    error: a.error,
  };
}

export function presentWebhookRequestRead(r: WebhookRequestRecord): z.input<typeof webhookRequestRead> {
  return { ...presentWebhookRequest(r), attempts: r.attempts.map(presentAttempt) };
}
