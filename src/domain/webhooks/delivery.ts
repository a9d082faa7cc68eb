// Delivering a webhook request, one attempt at a time (docs/webhooks.md "Delivery"): sign,
// authenticate, send, and log the attempt with the request's new state in one transaction.
// An attempt already logged is not sent again, so a retried activity repeats nothing.
import type { Db, Webhook, WebhookRequest } from '../../db/client';
import type { OutboundConfig } from '../../outbound';
import { webhookRequestWorkflowId } from '../../workflows/contracts';
import { isTransient } from '../db-errors';
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
  /**
   * Made by the request's writer while it holds the delivery's intent (docs/webhooks.md "First
   * attempt in the run"): the log also settles the intent (no workflow after a SUCCESS or a final
   * failure) or releases it to the dispatcher (the delivery workflow makes the retries).
   */
  held?: boolean;
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
  await logAttempt(db, input, result, state, responseBody, error);
  return state;
}

/**
 * The attempt, the request's new state and a held intent's settlement, in one statement (no
 * transaction slot to wait for).
 * The request has left by now: a failure here would make the activity's retry send it again, so
 * a busy database is waited for here, up to LOG_RETRY_MS, instead (issue 32: under load Prisma's
 * 5 s transaction slot timed out after the POST, and receivers got the same webhook-id twice).
 */
async function logAttempt(db: Db, input: AttemptInput, result: SendResult, state: RequestState, responseBody: string | null, error: string | null): Promise<void> {
  const { organisationId, requestId, attempt } = input;
  const held = input.held === true;
  const statement = () => db.$executeRaw`
    WITH logged AS (
      INSERT INTO webhook_attempts (organisation_id, request_id, attempt, started_at, duration_ms, status_code, response_body, error)
      VALUES (${organisationId}::uuid, ${requestId}::uuid, ${attempt}, ${result.startedAt}, ${result.durationMs}, ${result.statusCode}, ${responseBody}, ${error})
      ON CONFLICT (request_id, attempt) DO NOTHING
    ), intent AS (
      UPDATE workflow_intents SET claimed_until = NULL, dispatched_at = ${state === 'PENDING' ? null : new Date()}
       WHERE ${held} AND organisation_id = ${organisationId}::uuid AND workflow_id = ${webhookRequestWorkflowId(requestId)}
         AND dispatched_at IS NULL AND (${state !== 'PENDING'} OR attempts = 0)
    )
    UPDATE webhook_requests
       SET retries = ${attempt - 1}, response_status = ${result.statusCode}, response_body = ${responseBody}, state = ${state},
           completed_at = ${state === 'PENDING' ? null : new Date()}, updated_at = now()
     WHERE organisation_id = ${organisationId}::uuid AND id = ${requestId}::uuid AND state = 'PENDING'`;
  const until = Date.now() + LOG_RETRY_MS;
  for (let wait = 50; ; wait = Math.min(wait * 2, 2000)) {
    try {
      await statement();
      return;
    } catch (err) {
      if (!isTransient(err) || Date.now() + wait > until) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

/** How long a log waits out a busy database (transient errors) before the activity fails. */
export const LOG_RETRY_MS = 30_000;

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
