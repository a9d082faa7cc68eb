// The outbound gateway over every channel (docs/security.md "Outbound requests"). The shared
// test service allows 127.0.0.1/32 and ::1/128 (OUTBOUND_ALLOW_CIDRS); 127.0.0.2 is loopback
// outside that list, reachable on Linux, so receivers there prove a refusal never connects.
// A "send-time" refusal rewrites a stored target in the database, as a DNS change would.
import type { Connection } from '@temporalio/client';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../../src/config';
import type { Db, Tx } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { createWebhookRequest, webhookDelivery } from '../../src/domain/webhooks/requests';
import { txSql } from '../../src/db/sql';
import { recordIntent } from '../../src/temporal/intents';
import { createContact, eventually, settled as communicationSettled } from '../communications/helpers';
import { createId, expectError, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { connectTemporal } from '../support/temporal';

let t: Tenant;
let root: Db;
let connection: Connection;
let contactId: string;
const closers: Array<() => Promise<unknown>> = [];
const HINT = '(an operator can allow addresses with OUTBOUND_ALLOW_CIDRS)';

beforeAll(async () => {
  t = await createTenant('Outbound gateway');
  root = openDatabase();
  connection = await connectTemporal();
  contactId = await createContact(t.secretKey, { first_name: 'Out', email_address: 'out@shop.test', phones: [{ number: '+357 99 000 222' }] });
});

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await connection?.close();
  await root?.$disconnect();
});

const db = () => scopedClient(root, t.organisationId) as unknown as Tx;

async function receiver(host = '127.0.0.1', answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer, host);
  closers.push(() => r.close());
  return r;
}

/** A plain HTTP server of the test's own: a handler per request, counting requests. */
async function server(handler: http.RequestListener): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const s = http.createServer((req, res) => {
    hits++;
    handler(req, res);
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise((r) => (s.closeAllConnections(), s.close(r))));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, hits: () => hits };
}

async function smtpSink(host: string): Promise<{ port: number; connections: () => number; mails: () => number }> {
  let connections = 0;
  let mails = 0;
  const sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect: (_s, cb) => (connections++, cb()),
    onData: (stream, _s, cb) => {
      stream.resume();
      stream.on('end', () => (mails++, cb()));
    },
  });
  await new Promise<void>((r) => sink.listen(0, host, r));
  closers.push(() => new Promise<void>((r) => sink.close(() => r())));
  return { port: (sink.server.address() as AddressInfo).port, connections: () => connections, mails: () => mails };
}

const postWebhook = (url: string) => api('POST', '/webhooks', { key: t.secretKey, body: { name: 'Out', method: 'POST', url_endpoint: url } });
const postIntegration = (settings: object, channel = 'SMS') =>
  api('POST', '/integrations', { key: t.secretKey, body: { name: 'Out', channel, provider: channel === 'SMS' ? 'HTTP' : 'SMTP', settings } });
const sms = (url: string) => ({ url, method: 'POST', auth: { type: 'NONE' }, body_template: 'to={{to}}&msg={{message}}' });
const smtp = (host: string, port: number) => ({ host, port, secure: false, from_address: 'news@shop.test' });

const requestSettled = (id: string) =>
  eventually(async () => {
    const res = await api('GET', `/webhook_requests/${id}`, { key: t.secretKey });
    return res.body.state !== 'PENDING' && res.body;
  }, 30_000, `webhook request ${id}`);

/** POST /webhooks/{id}/test, settled. */
async function webhookTest(webhookId: string) {
  const res = await api('POST', `/webhooks/${webhookId}/test`, { key: t.secretKey });
  expect(res.status).toBe(200);
  return requestSettled(res.body.id);
}

/** A webhook request as an automation makes one, delivered by its workflow, settled. */
async function webhookAttempt(webhookId: string) {
  const made = await createWebhookRequest(db(), t.organisationId, { webhookId, type: 'REGISTER_CONTACT', data: { contact: { id: contactId } }, causeKey: `outbound:${newId()}` });
  await recordIntent(txSql(db(), t.organisationId), webhookDelivery(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,1s,1s,1s' }), t.organisationId, made.id));
  return requestSettled(made.id);
}

async function communicate(integrationId: string, channel: 'SMS' | 'EMAIL') {
  const id = await createId(t.secretKey, '/communications', { name: 'Out', contact_id: contactId, channel, integration_id: integrationId, subject: 'Hi', content: 'Hello' });
  return communicationSettled(t.secretKey, id);
}

/** The stored target changes behind the write-time check (a DNS answer that changed). */
async function retarget(integrationId: string, change: object) {
  const current = await db().integration.findFirstOrThrow({ where: { id: integrationId } });
  await db().integration.update({ where: { id: integrationId }, data: { settings: { ...(current.settings as object), ...change } } });
}

test('webhooks: attempts and POST /webhooks/{id}/test reach an allowed receiver; another loopback address is refused on write and at send', async () => {
  const allowed = await receiver();
  const outside = await receiver('127.0.0.2');
  const created = await postWebhook(allowed.url);
  expect(created.status).toBe(200);
  const id = created.body.id as string;
  expect(await webhookAttempt(id)).toMatchObject({ state: 'SUCCESS', response_status: 200 });
  expect(await webhookTest(id)).toMatchObject({ state: 'SUCCESS', response_status: 200 });
  expect(allowed.received).toHaveLength(2);

  const refused = await postWebhook(outside.url);
  expectError(refused, 400, 'INVALID_REQUEST', 'url_endpoint');
  expect(refused.body.message).toBe(`url_endpoint: must be an https URL to a public address; 127.0.0.2 is loopback ${HINT}`);
  expectError(await api('PUT', `/webhooks/${id}`, { key: t.secretKey, body: { url_endpoint: outside.url } }), 400, 'INVALID_REQUEST', 'url_endpoint');

  await db().webhook.update({ where: { id }, data: { urlEndpoint: outside.url } });
  for (const done of [await webhookTest(id), await webhookAttempt(id)]) {
    expect(done).toMatchObject({ state: 'FAILED', response_status: null });
    expect(done.attempts[0].error).toBe(`refused: must be an https URL to a public address; 127.0.0.2 is loopback ${HINT}`);
  }
  expect(outside.received).toHaveLength(0);
});

test('HTTP SMS integration: reaches an allowed provider; another loopback address is refused on write and at send', async () => {
  const allowed = await receiver();
  const outside = await receiver('127.0.0.2');
  const created = await postIntegration(sms(allowed.url));
  expect(created.status).toBe(200);
  const id = created.body.id as string;
  expect(await communicate(id, 'SMS')).toMatchObject({ life_cycle_state: 'SENT' });
  expect(allowed.received).toHaveLength(1);

  const refused = await postIntegration(sms(outside.url));
  expectError(refused, 400, 'INVALID_REQUEST', 'settings.url');
  expect(refused.body.message).toBe(`settings.url: must be an https URL to a public address; 127.0.0.2 is loopback ${HINT}`);
  expectError(await api('PUT', `/integrations/${id}`, { key: t.secretKey, body: { settings: sms(outside.url) } }), 400, 'INVALID_REQUEST', 'settings.url');
  // http to a public address: only https leaves for addresses the operator did not list.
  expectError(await postIntegration(sms('http://8.8.8.8/sms')), 400, 'INVALID_REQUEST', 'settings.url');

  await retarget(id, { url: outside.url });
  const failed = await communicate(id, 'SMS');
  expect(failed).toMatchObject({ life_cycle_state: 'FAILED', failure_reason: `refused: settings.url must be an https URL to a public address; 127.0.0.2 is loopback ${HINT}` });
  expect(outside.received).toHaveLength(0);
});

test('SMTP integration: reaches an allowed server; another loopback address is refused on write and at send', async () => {
  const allowed = await smtpSink('127.0.0.1');
  const outside = await smtpSink('127.0.0.2');
  const id = await createId(t.secretKey, '/integrations', { name: 'Out', channel: 'EMAIL', provider: 'SMTP', settings: smtp('127.0.0.1', allowed.port) });
  expect(await communicate(id, 'EMAIL')).toMatchObject({ life_cycle_state: 'SENT' });
  expect(allowed.mails()).toBe(1);

  const refused = await postIntegration(smtp('127.0.0.2', outside.port), 'EMAIL');
  expectError(refused, 400, 'INVALID_REQUEST', 'settings.host');
  expect(refused.body.message).toBe(`settings.host: must be a public address; 127.0.0.2 is loopback ${HINT}`);

  await retarget(id, { host: '127.0.0.2', port: outside.port });
  const failed = await communicate(id, 'EMAIL');
  expect(failed).toMatchObject({ life_cycle_state: 'FAILED', failure_reason: `refused: settings.host must be a public address; 127.0.0.2 is loopback ${HINT}` });
  expect(outside.connections()).toBe(0);
});

test("the service's own listeners are refused on every channel, although 127.0.0.1 is allowed", async () => {
  const { url, temporalAddress, dataDir } = testState();
  const ports = [new URL(url).port, temporalAddress.split(':').pop()!];
  const dbInfo = path.join(dataDir, 'database.json');
  if (!process.env.DATABASE_URL && existsSync(dbInfo)) ports.push(new URL(JSON.parse(readFileSync(dbInfo, 'utf8')).url).port);
  for (const port of ports) {
    const hook = await postWebhook(`http://127.0.0.1:${port}/`);
    expectError(hook, 400, 'INVALID_REQUEST', 'url_endpoint');
    expect(hook.body.message).toBe(`url_endpoint: 127.0.0.1, port ${port}: one of this service's own listeners, never a target`);
    expectError(await postIntegration(sms(`https://localhost:${port}/`)), 400, 'INVALID_REQUEST', 'settings.url');
    expectError(await postIntegration(smtp('127.0.0.1', Number(port)), 'EMAIL'), 400, 'INVALID_REQUEST', 'settings.host');
  }
});

test('a redirect is not followed: the webhook attempt and the SMS fail naming it, the target never hears of it', async () => {
  const target = await receiver();
  const redirecting = await server((_req, res) => res.writeHead(302, { location: target.url }).end());
  const hook = await createId(t.secretKey, '/webhooks', { name: 'Redirected', method: 'POST', url_endpoint: redirecting.url });
  const done = await webhookTest(hook);
  expect(done).toMatchObject({ state: 'FAILED', response_status: 302 });
  expect(done.attempts[0].error).toBe('answered 302 (redirects are not followed)');
  const integration = await createId(t.secretKey, '/integrations', { name: 'Redirected', channel: 'SMS', provider: 'HTTP', settings: sms(redirecting.url) });
  expect(await communicate(integration, 'SMS')).toMatchObject({ life_cycle_state: 'FAILED', failure_reason: 'SMS provider answered 302 (redirects are not followed)' });
  expect(redirecting.hits()).toBe(4 + 1); // the webhook's schedule; the SMS once (not retried)
  expect(target.received).toHaveLength(0);
});

test('an answer is read up to the cap, then the connection is dropped', async () => {
  const TOTAL = 32 * 1024 * 1024;
  const streams: Array<{ written: number; completed: boolean }> = [];
  const endless = await server((req, res) => {
    const s = { written: 0, completed: false };
    streams.push(s);
    const closed = new Promise((r) => res.once('close', r));
    req.resume();
    req.on('end', async () => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      while (s.written < TOTAL && !res.destroyed) {
        s.written += chunk.length;
        if (!res.write(chunk)) await Promise.race([new Promise((r) => res.once('drain', r)), closed]);
      }
      if (!res.destroyed) res.end(() => (s.completed = true));
    });
  });
  // Kernel buffers take a few MiB more than the reader wanted; a reader reading it all takes the whole.
  const cut = async (s: { written: number; completed: boolean }) => {
    await new Promise((r) => setTimeout(r, 500));
    expect({ completed: s.completed, cut: s.written < TOTAL / 2 }).toEqual({ completed: false, cut: true });
  };
  const integration = await createId(t.secretKey, '/integrations', { name: 'Endless', channel: 'SMS', provider: 'HTTP', settings: sms(endless.url) });
  expect(await communicate(integration, 'SMS')).toMatchObject({ life_cycle_state: 'SENT' });
  await cut(streams[0]);
  const hook = await createId(t.secretKey, '/webhooks', { name: 'Endless', method: 'POST', url_endpoint: endless.url });
  const done = await webhookTest(hook);
  expect(done).toMatchObject({ state: 'SUCCESS', response_status: 200 });
  expect(done.response).toHaveLength(4096);
  await cut(streams[1]);
  expect(streams).toHaveLength(2);
});

test('IPv6 transition and IPv4-embedding addresses are refused on every channel', async () => {
  const hosts = [
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '64:ff9b::7f00:1', // NAT64
    '64:ff9b:1::7f00:1', // local-use NAT64
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '::ffff:127.0.0.1', // IPv4-mapped, although 127.0.0.1 is allowed
    '::7f00:1', // IPv4-compatible
  ];
  for (const host of hosts) {
    const hook = await postWebhook(`https://[${host}]/hook`);
    expect([host, hook.status, hook.body.attribute]).toEqual([host, 400, 'url_endpoint']);
    expect(hook.body.message).toContain(HINT);
    expect([host, (await postIntegration(sms(`https://[${host}]/sms`))).body.attribute]).toEqual([host, 'settings.url']);
    expect([host, (await postIntegration(smtp(host, 25), 'EMAIL')).body.attribute]).toEqual([host, 'settings.host']);
  }
});

test('allow_private_webhook_endpoints is no tenant setting any more: PUT /settings naming it is 400, GET does not answer it', async () => {
  expectError(await api('PUT', '/settings', { key: t.secretKey, body: { allow_private_webhook_endpoints: true } }), 400, 'INVALID_REQUEST', 'allow_private_webhook_endpoints');
  const read = await api('GET', '/settings', { key: t.secretKey });
  expect(read.status).toBe(200);
  expect(read.body).not.toHaveProperty('allow_private_webhook_endpoints');
});
