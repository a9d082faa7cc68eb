// Webhook delivery against real HTTP receivers (docs/webhooks.md "Delivery"): Standard Webhooks
// signature and url_auth headers, retries on the test schedule (0,1s,1s,1s; 2 s timeout), the
// attempt log, timeouts, redirects, rotation's two signatures, and the workflow found in Temporal
// by type and by search attribute. The endpoint re-checked at delivery: test/security/outbound.test.ts.
import { Client, Connection } from '@temporalio/client';
import { loadConfig } from '../../src/config';
import type { Db, Tx } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { createWebhookRequest, webhookDelivery } from '../../src/domain/webhooks/requests';
import { txSql } from '../../src/db/sql';
import { recordIntent } from '../../src/temporal/intents';
import { webhookRequestWorkflowId } from '../../src/workflows/contracts';
import { eventually } from '../communications/helpers';
import { openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { expectedSignature, startReceiver, type Answer, type Received, type Receiver } from './receiver';
import { connectTemporal } from '../support/temporal';

let t: Tenant;
let root: Db;
let connection: Connection;
let client: Client;
const receivers: Receiver[] = [];
const nowS = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  t = await createTenant('Webhook delivery');
  root = openDatabase();
  connection = await connectTemporal();
  client = new Client({ connection });
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await connection?.close();
  await root?.$disconnect();
});

async function receiver(answer?: (r: Received, i: number) => Answer): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

async function webhook(url: string, extra: object = {}, tenant = t): Promise<{ id: string; secret: string }> {
  const res = await api('POST', '/webhooks', { key: tenant.secretKey, body: { name: 'Receiver', method: 'POST', url_endpoint: url, ...extra } });
  expect(res.status).toBe(200);
  return { id: res.body.id, secret: res.body.secret_key };
}

const sendTest = async (webhookId: string, tenant = t) => {
  const res = await api('POST', `/webhooks/${webhookId}/test`, { key: tenant.secretKey });
  expect(res.status).toBe(200);
  return res.body.id as string;
};

/** The request once it is no longer PENDING. */
const settled = (requestId: string, tenant = t) =>
  eventually(async () => {
    const res = await api('GET', `/webhook_requests/${requestId}`, { key: tenant.secretKey });
    return res.body.state !== 'PENDING' && res.body;
  }, 30_000, `request ${requestId} to settle`);

test('a signed request with Basic auth: headers, body and signature verify with the secret GET answers', async () => {
  const r = await receiver();
  const { id, secret } = await webhook(r.url, { method: 'PUT', url_auth: 'USERNAME_PASSWORD', username: 'bo', password: 'pa:ss' });
  expect((await api('GET', `/webhooks/${id}`, { key: t.secretKey })).body.content[0].secret_key).toBe(secret);
  const before = nowS();
  const requestId = await sendTest(id);
  const done = await settled(requestId);
  expect(done).toMatchObject({ state: 'SUCCESS', retries: 0, response_status: 200, response: 'ok', completed_on: expect.any(Number), type: 'WEBHOOK_TEST' });
  expect(done.attempts).toEqual([{ attempt: 1, started_on: expect.any(Number), duration_ms: expect.any(Number), status_code: 200, response: 'ok', error: null }]);
  expect(r.received).toHaveLength(1);
  const got = r.received[0];
  expect(got.method).toBe('PUT');
  expect(got.path).toBe('/hook');
  expect(got.headers['content-type']).toBe('application/json');
  expect(got.headers['user-agent']).toMatch(/^backoffice-webhooks\//);
  expect(got.headers['webhook-id']).toBe(requestId);
  expect(Number(got.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
  expect(got.headers['webhook-signature']).toBe(expectedSignature(secret, got));
  expect(got.headers.authorization).toBe(`Basic ${Buffer.from('bo:pa:ss').toString('base64')}`);
  expect(got.headers.api_key).toBeUndefined();
  expect(JSON.parse(got.body)).toEqual({ id: requestId, type: 'WEBHOOK_TEST', created_on: expect.any(Number), data: { webhook_id: id } });
  // The log answers the body that was sent.
  expect(done.body).toEqual(JSON.parse(got.body));
  // Counted on the webhook.
  expect((await api('GET', `/webhooks/${id}`, { key: t.secretKey })).body.content[0]).toMatchObject({ successful_requests: 1, pending_requests: 0 });
});

test('API_KEY: the key travels in the api_key header; a host name is resolved and connected to', async () => {
  const r = await receiver();
  const { id } = await webhook(r.url.replace('127.0.0.1', 'localhost'), { url_auth: 'API_KEY', api_key: 'hook-key-1' });
  await settled(await sendTest(id));
  expect(r.received[0].headers.api_key).toBe('hook-key-1');
  expect(r.received[0].headers.authorization).toBeUndefined();
});

test('500 twice, then 200: SUCCESS with retries 2 and three attempts logged; the same body, fresh timestamps', async () => {
  const r = await receiver((_req, i) => (i < 2 ? { status: 500, body: `down ${i}` } : { status: 204 }));
  const { id, secret } = await webhook(r.url);
  const done = await settled(await sendTest(id));
  expect(done).toMatchObject({ state: 'SUCCESS', retries: 2, response_status: 204, response: '' });
  expect(done.attempts.map((x: Record<string, unknown>) => [x.attempt, x.status_code, x.response, x.error])).toEqual([
    [1, 500, 'down 0', 'answered 500'],
    [2, 500, 'down 1', 'answered 500'],
    [3, 204, '', null],
  ]);
  expect(new Set(r.received.map((x) => x.body)).size).toBe(1);
  for (const got of r.received) expect(got.headers['webhook-signature']).toBe(expectedSignature(secret, got));
  // The schedule's 1 s delays lie between the attempts.
  expect(done.attempts[2].started_on - done.attempts[0].started_on).toBeGreaterThanOrEqual(1);
});

test('always failing: FAILED after the schedule (4 attempts, retries 3); a redirect is a failure, not followed', async () => {
  const failing = await receiver(() => ({ status: 503, body: 'x'.repeat(10_000) }));
  const redirecting = await receiver((req) => (req.path === '/hook' ? { status: 302, body: 'moved' } : { status: 200 }));
  const [f, red] = await Promise.all([webhook(failing.url), webhook(redirecting.url)]);
  const [failed, redirected] = await Promise.all([settled(await sendTest(f.id)), settled(await sendTest(red.id))]);
  expect(failed).toMatchObject({ state: 'FAILED', retries: 3, response_status: 503 });
  expect(failed.attempts).toHaveLength(4);
  expect(failed.response).toBe('x'.repeat(4096)); // cut to 4 KiB
  expect(failing.received).toHaveLength(4);
  expect(redirected).toMatchObject({ state: 'FAILED', retries: 3, response_status: 302 });
  expect(redirected.attempts[0].error).toMatch(/302.*redirect/);
  expect(redirecting.received.every((x) => x.path === '/hook')).toBe(true);
  expect((await api('GET', `/webhooks/${f.id}`, { key: t.secretKey })).body.content[0]).toMatchObject({ failed_requests: 1, successful_requests: 0 });
});

test('a receiver that never answers: every attempt times out (WEBHOOK_TIMEOUT_MS) and the request FAILS', async () => {
  const r = await receiver(() => 'hang');
  const { id } = await webhook(r.url);
  const done = await settled(await sendTest(id));
  expect(done).toMatchObject({ state: 'FAILED', retries: 3, response_status: null, response: null });
  expect(done.attempts).toHaveLength(4);
  for (const a of done.attempts) {
    expect(a.error).toMatch(/timeout/);
    expect(a.duration_ms).toBeGreaterThanOrEqual(1900);
    expect(a.duration_ms).toBeLessThan(5000);
  }
});

test('rotation: during the overlap two signatures, each verifying with its secret; after it only the new one', async () => {
  const r = await receiver();
  const { id, secret: old } = await webhook(r.url);
  const until = nowS() + 3;
  const rotated = await api('POST', `/webhooks/${id}/rotate_secret`, { key: t.secretKey, body: { previous_secret_active_until: until } });
  const fresh = rotated.body.secret_key as string;
  await settled(await sendTest(id));
  const signatures = (r.received[0].headers['webhook-signature'] as string).split(' ');
  expect(signatures).toEqual([expectedSignature(fresh, r.received[0]), expectedSignature(old, r.received[0])]);
  await new Promise((res) => setTimeout(res, Math.max(0, (until + 1) * 1000 - Date.now())));
  await settled(await sendTest(id));
  expect(r.received[1].headers['webhook-signature']).toBe(expectedSignature(fresh, r.received[1]));
});

test('no active secret: nothing is sent unsigned, the attempts fail with the reason', async () => {
  const r = await receiver();
  const { id } = await webhook(r.url, { secret_key_active_until: nowS() + 2 });
  await new Promise((res) => setTimeout(res, 3000));
  const done = await settled(await sendTest(id));
  expect(done).toMatchObject({ state: 'FAILED', retries: 3 });
  expect(done.attempts[0].error).toMatch(/no active signing secret/);
  expect(r.received).toHaveLength(0);
});

test('a delivery intent: the workflow is found by type and search attributes; a repeated intent is a no-op; a deleted webhook fails at once', async () => {
  const r = await receiver();
  const config = loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,1s,1s,1s' });
  const { id } = await webhook(r.url);
  const automationId = newId();
  const entityId = newId();
  const tx = scopedClient(root, t.organisationId) as unknown as Tx;
  const made = await createWebhookRequest(tx, t.organisationId, {
    webhookId: id, type: 'REGISTER_CONTACT', data: { contact: { id: entityId } }, causeKey: `auto:${automationId}`,
    automation: { id: automationId, name: 'Welcome' }, entity: { type: 'CONTACT', id: entityId, reference: 'C-9' }, callId: newId(),
  });
  const refs = { automationId, entityType: 'CONTACT', entityId };
  // Performed by the service's outbox dispatcher (its sweep: nothing kicks it from here).
  await recordIntent(txSql(tx, t.organisationId), webhookDelivery(config, t.organisationId, made.id, refs));
  await recordIntent(txSql(tx, t.organisationId), webhookDelivery(config, t.organisationId, made.id, refs));
  const done = await settled(made.id);
  expect(done).toMatchObject({ state: 'SUCCESS', automation: { id: automationId, name: 'Welcome' }, entity: { type: 'CONTACT', id: entityId, reference: 'C-9' } });
  expect(r.received).toHaveLength(1);
  expect(JSON.parse(r.received[0].body)).toMatchObject({ id: made.id, type: 'REGISTER_CONTACT', call_id: done.call_id });

  const ids = async (query: string) => {
    const out: string[] = [];
    for await (const w of client.workflow.list({ query })) out.push(w.workflowId);
    return out;
  };
  const workflowId = webhookRequestWorkflowId(made.id);
  const byAutomation = await eventually(async () => {
    const found = await ids(`AutomationId = "${automationId}"`);
    return found.length ? found : null;
  }, 10_000, 'the workflow by AutomationId');
  expect(byAutomation).toEqual([workflowId]);
  expect(await ids(`EntityId = "${entityId}" AND EntityType = "CONTACT"`)).toEqual([workflowId]);
  expect(await ids(`WorkflowType = "webhookDeliveryWorkflow" AND OrganisationId = "${t.organisationId}"`)).toContain(workflowId);
  expect((await client.workflow.getHandle(workflowId).describe()).status.name).toBe('COMPLETED');

  // A request whose webhook is gone fails at its first attempt, keeping the webhook's name.
  const orphan = await createWebhookRequest(tx, t.organisationId, { webhookId: id, type: 'REGISTER_CONTACT', data: {}, causeKey: `orphan:${newId()}` });
  await api('DELETE', `/webhooks/${id}`, { key: t.secretKey });
  await recordIntent(txSql(tx, t.organisationId), webhookDelivery(config, t.organisationId, orphan.id));
  const gone = await settled(orphan.id);
  expect(gone).toMatchObject({ state: 'FAILED', retries: 0, webhook: { id: null, name: 'Receiver' } });
  expect(gone.attempts.map((x: { error: string }) => x.error)).toEqual(['the webhook was deleted']);
});

test('POST /webhooks/{id}/test: 404 for an unknown webhook', async () => {
  const res = await api('POST', `/webhooks/${newId()}/test`, { key: t.secretKey });
  expect([res.status, res.body.code]).toEqual([404, 'NOT_FOUND']);
});
