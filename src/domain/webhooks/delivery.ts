// Delivering a webhook request, one attempt at a time (docs/webhooks.md "Delivery"): sign,
// authenticate, send, and log the attempt with the request's new state in one statement.
// An attempt already logged is not sent again, so a retried activity repeats nothing.
// Hand-written statements on the organisation's pg (src/db/sql.ts): this is the run path.
import { countWebhookAttempt } from '../../telemetry/instruments';
import type { Prisma, Webhook } from '../../db/client';
import type { OrgSql } from '../../db/sql';
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
}

export interface AttemptOptions {
  timeoutMs: number;
  config: OutboundConfig;
  /**
   * Made by the request's writer while it holds the delivery's intent (docs/webhooks.md "First
   * attempt in the run"): the log also settles the intent (no workflow after a SUCCESS or a final
   * failure) or releases it to the dispatcher (the delivery workflow makes the retries).
   */
  held?: boolean;
}

export const USER_AGENT = 'backoffice-webhooks/1';

/** How long a log waits out a busy database (transient errors) before the activity fails. */
export const LOG_RETRY_MS = 30_000;

/** What an attempt reads of its webhook: the select list over a webhooks row `w` (null once the webhook is deleted). */
export const WEBHOOK_COLUMNS = (w: string) => `${w}.id AS "webhookId", ${w}.username, ${w}.password, ${w}.api_key AS "apiKey", ${w}.secret,
  ${w}.secret_active_until AS "secretActiveUntil", ${w}.previous_secret AS "previousSecret",
  ${w}.previous_secret_active_until AS "previousSecretActiveUntil"`;

// The request, whether this attempt is logged, and its webhook, in one statement.
const READ = `SELECT r.id, r.state, r.method, r.url_endpoint AS "urlEndpoint", r.url_auth AS "urlAuth", r.body,
  EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.request_id = r.id AND a.attempt = $3) AS logged, ${WEBHOOK_COLUMNS('w')}
FROM webhook_requests r LEFT JOIN webhooks w ON w.id = r.webhook_id AND w.organisation_id = $1
WHERE r.organisation_id = $1 AND r.id = $2::uuid`;

type StoredWebhook = Pick<Webhook, 'id' | 'username' | 'password' | 'apiKey' | 'secret' | 'secretActiveUntil' | 'previousSecret' | 'previousSecretActiveUntil'>;

/** A request as its attempt sends it, with its webhook's credentials (secret null: the webhook is gone). */
export type AttemptRequest = {
  id: string;
  method: string;
  urlEndpoint: string;
  urlAuth: string;
  body: Prisma.JsonValue;
  webhookId: string | null;
} & Omit<StoredWebhook, 'id' | 'secret'> & { secret: string | null };

type ReadRow = AttemptRequest & { state: RequestState; logged: boolean };

/**
 * One attempt; answers the request's state after it. `sql` is the request's organisation's.
 * `written`: the request as the statement that wrote it just answered it (PENDING, no attempt
 * logged), so it is not read again.
 */
export async function attemptDelivery(sql: OrgSql, opts: AttemptOptions, input: AttemptInput, written?: AttemptRequest): Promise<RequestState> {
  let request = written;
  if (!request) {
    const [row] = await sql.rows<ReadRow>(READ, [input.requestId, input.attempt]);
    // Requests are never deleted: one that is not found is another organisation's (a forged start).
    if (!row) throw notFound('Webhook request');
    if (row.state !== 'PENDING' || row.logged) return row.state;
    request = row;
  }

  const { webhookId, secret } = request;
  const webhook = webhookId !== null && secret !== null ? openWebhook<StoredWebhook>({ ...request, id: webhookId, secret }) : null;
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
  await logAttempt(sql, input, opts.held === true, result, state);
  countWebhookAttempt(input.organisationId, state === 'SUCCESS' ? 'success' : state === 'FAILED' ? 'failed' : 'retry');
  return state;
}

// $2 request, $3 attempt, $4-$8 the answer, $9 state, $10 completed at, $11 held, $12 the intent's workflow id.
const LOG = `WITH logged AS (
  INSERT INTO webhook_attempts (organisation_id, request_id, attempt, started_at, duration_ms, status_code, response_body, error)
  VALUES ($1, $2::uuid, $3, $4, $5, $6, $7, $8)
  ON CONFLICT (request_id, attempt) DO NOTHING
), intent AS (
  UPDATE workflow_intents SET claimed_until = NULL, dispatched_at = CASE WHEN $9::text = 'PENDING' THEN NULL ELSE now() END
  WHERE $11::boolean AND organisation_id = $1 AND workflow_id = $12 AND dispatched_at IS NULL AND ($9::text <> 'PENDING' OR attempts = 0)
)
UPDATE webhook_requests
   SET retries = $3::int - 1, response_status = $6, response_body = $7, state = $9::text, completed_at = $10, updated_at = now()
 WHERE organisation_id = $1 AND id = $2::uuid AND state = 'PENDING'`;

/**
 * The attempt, the request's new state and a held intent's settlement, in one statement (no
 * transaction slot to wait for). The request has left by now: a failure here would make the
 * activity's retry send it again, so a busy database is waited for, up to LOG_RETRY_MS (issue
 * 32: under load Prisma's 5 s transaction slot timed out after the POST, and receivers got the
 * same webhook-id twice).
 */
async function logAttempt(sql: OrgSql, input: AttemptInput, held: boolean, result: SendResult, state: RequestState): Promise<void> {
  const params = [
    input.requestId, input.attempt, result.startedAt, result.durationMs, result.statusCode,
    result.responseBody?.slice(0, RESPONSE_LIMIT) ?? null, result.error?.slice(0, 1000) ?? null,
    state, state === 'PENDING' ? null : new Date(), held, webhookRequestWorkflowId(input.requestId),
  ];
  const until = Date.now() + LOG_RETRY_MS;
  for (let wait = 50; ; wait = Math.min(wait * 2, 2000)) {
    try {
      await sql.rows(LOG, params);
      return;
    } catch (err) {
      if (!isTransient(err) || Date.now() + wait > until) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}

function refusal(error: string): SendResult {
  return { startedAt: new Date(), durationMs: 0, statusCode: null, responseBody: null, error };
}

/** The signed request: a fresh timestamp and signatures on every attempt, the auth of url_auth. */
function outgoing(request: AttemptRequest, webhook: StoredWebhook, secrets: string[]) {
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
