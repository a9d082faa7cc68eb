// Delivering a webhook request, one attempt at a time (docs/webhooks.md "Delivery"): sign,
// authenticate, send, and log the attempt with the request's new state in one transaction.
// An attempt already logged is not sent again, so a retried activity repeats nothing.
import type { Db, Webhook, WebhookRequest } from '../../db/client';
import type { OutboundConfig } from '../../outbound';
import { notFound } from '../errors';
import { bodyOf } from './requests';
import { openWebhook } from './sealed';
import { sendOnce, RESPONSE_LIMIT, type SendResult } from './send';
import { activeSecrets, signature } from './signing';

export type RequestState = 'PENDING' | 'SUCCESS' | 'FAILED';

export interface AttemptInput {
  organisationId: string;
  requestId: string;
  /** 1 for the first. */
  attempt: number;
  /** The schedule's last: a failure makes the request FAILED. */
  last: boolean;
}

export const USER_AGENT = 'backoffice-webhooks/1';

/** One attempt; answers the request's state after it. `db` is scoped to the organisation. */
export async function attemptDelivery(db: Db, opts: { timeoutMs: number; config: OutboundConfig }, input: AttemptInput): Promise<RequestState> {
  const { organisationId, requestId, attempt } = input;
  // One statement (relationJoins): the request, whether this attempt is logged, and its webhook.
  const request = await db.webhookRequest.findFirst({
    where: { organisationId, id: requestId },
    include: { webhook: true, attempts: { where: { attempt }, select: { attempt: true } } },
  });
  // Requests are never deleted: one that is not found is another organisation's (a forged start).
  if (!request) throw notFound('Webhook request');
  if (request.state !== 'PENDING') return request.state as RequestState;
  if (request.attempts.length) return request.state as RequestState;

  const stored = request.webhook?.organisationId === organisationId ? request.webhook : null;
  const webhook = stored && openWebhook(stored);
  let result: SendResult;
  let final = input.last;
  if (!webhook) {
    result = refusal('the webhook was deleted');
    final = true; // no later attempt can be sent either
  } else {
    const secrets = activeSecrets(webhook, new Date());
    if (!secrets.length) {
      result = refusal('no active signing secret (secret_key_active_until has passed): rotate the secret');
    } else {
      result = await sendOnce(outgoing(request, webhook, secrets), opts);
    }
  }
  const state: RequestState = result.error === null ? 'SUCCESS' : final ? 'FAILED' : 'PENDING';
  const responseBody = result.responseBody?.slice(0, RESPONSE_LIMIT) ?? null;
  const error = result.error?.slice(0, 1000) ?? null;
  await db.$transaction([
    db.webhookAttempt.upsert({
      where: { requestId_attempt: { requestId, attempt }, organisationId },
      create: { organisationId, requestId, attempt, startedAt: result.startedAt, durationMs: result.durationMs, statusCode: result.statusCode, responseBody, error },
      update: {},
    }),
    db.webhookRequest.updateMany({
      where: { organisationId, id: requestId, state: 'PENDING' },
      data: { retries: attempt - 1, responseStatus: result.statusCode, responseBody, state, completedAt: state === 'PENDING' ? null : new Date() },
    }),
  ]);
  return state;
}

function refusal(error: string): SendResult {
  return { startedAt: new Date(), durationMs: 0, statusCode: null, responseBody: null, error };
}

/** The signed request: a fresh timestamp and signatures on every attempt, the auth of url_auth. */
function outgoing(request: WebhookRequest, webhook: Webhook, secrets: string[]) {
  const body = JSON.stringify(bodyOf(request.body));
  const timestamp = Math.floor(Date.now() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': request.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signature(s, request.id, timestamp, body)).join(' '),
  };
  // The webhook's current credentials: a password changed after the request was made is the one sent.
  if (request.urlAuth === 'USERNAME_PASSWORD' && webhook.username !== null) {
    headers.authorization = `Basic ${Buffer.from(`${webhook.username}:${webhook.password ?? ''}`).toString('base64')}`;
  }
  if (request.urlAuth === 'API_KEY' && webhook.apiKey !== null) headers.api_key = webhook.apiKey;
  return { method: request.method, url: request.urlEndpoint, headers, body };
}
