// Secrets at rest (docs/security.md "Secrets at rest"): the webhook and integration secrets the
// service must use again are stored sealed under SECRETS_KEY, read straight from the database
// here, while deliveries and sends still carry them; a row from before sealing (plain text) still
// works and `npm run admin -- reencrypt-secrets` seals it.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createContact, eventually, settled as communicationSettled } from '../communications/helpers';
import { createId, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { adminCli, createTenant, type Tenant } from '../support/tenants';
import { expectedSignature, startReceiver, type Receiver } from '../webhooks/receiver';

let t: Tenant;
let root: Db;
let contactId: string;
const closers: Array<() => Promise<unknown>> = [];
const SEALED = /^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/;
/** Unique plain texts, so that finding one in a row can only mean it is stored in clear. */
const plain = (label: string) => `${label}-${randomBytes(9).toString('base64url')}`;

beforeAll(async () => {
  t = await createTenant('Secrets at rest');
  root = openDatabase();
  contactId = await createContact(t.secretKey, { first_name: 'Rest', email_address: 'rest@shop.test', phones: [{ number: '+357 99 000 333' }] });
});

afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
  await root?.$disconnect();
});

const db = () => scopedClient(root, t.organisationId);

async function receiver(): Promise<Receiver> {
  const r = await startReceiver();
  closers.push(() => r.close());
  return r;
}

async function webhookDelivered(webhookId: string) {
  const res = await api('POST', `/webhooks/${webhookId}/test`, { key: t.secretKey });
  expect(res.status).toBe(200);
  return eventually(async () => {
    const got = await api('GET', `/webhook_requests/${res.body.id}`, { key: t.secretKey });
    return got.body.state !== 'PENDING' && got.body;
  }, 30_000, 'the webhook request to settle');
}

/** An SMTP server that requires a login and records the credentials it was given. */
async function smtpSink() {
  const logins: Array<{ username: string; password: string }> = [];
  const server = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return { port: (server.server.address() as AddressInfo).port, logins };
}

/** An HTTP SMS provider recording each request's Authorization header. */
async function smsProvider() {
  const auth: Array<string | undefined> = [];
  const server = http.createServer((req, res) => {
    auth.push(req.headers.authorization);
    req.resume();
    req.on('end', () => res.writeHead(200).end('{}'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`, auth };
}

const communicate = async (integrationId: string, channel: 'EMAIL' | 'SMS') => {
  const id = await createId(t.secretKey, '/communications', { name: 'At rest', contact_id: contactId, channel, integration_id: integrationId, subject: 'Hi', content: 'Hello' });
  return communicationSettled(t.secretKey, id);
};

test('webhook passwords, api keys and signing secrets are stored sealed, and deliveries still sign and authenticate', async () => {
  const r = await receiver();
  const password = plain('pw');
  const apiKey = plain('key');
  const basic = await api('POST', '/webhooks', { key: t.secretKey, body: { name: 'Basic', method: 'POST', url_endpoint: r.url, url_auth: 'USERNAME_PASSWORD', username: 'bo', password } });
  const keyed = await api('POST', '/webhooks', { key: t.secretKey, body: { name: 'Keyed', method: 'POST', url_endpoint: r.url, url_auth: 'API_KEY', api_key: apiKey } });
  expect([basic.status, keyed.status]).toEqual([200, 200]);
  const rotated = await api('POST', `/webhooks/${keyed.body.id}/rotate_secret`, { key: t.secretKey, body: {} });
  expect(rotated.status).toBe(200);
  const secrets = [password, apiKey, basic.body.secret_key, keyed.body.secret_key, rotated.body.secret_key];

  const rows = await db().webhook.findMany({ where: { id: { in: [basic.body.id, keyed.body.id] } }, orderBy: { name: 'asc' } });
  const stored = JSON.stringify(rows);
  for (const secret of secrets) expect(stored).not.toContain(secret);
  // Not merely encoded: base64 of a secret is not there either.
  for (const secret of secrets) expect(stored).not.toContain(Buffer.from(secret).toString('base64'));
  expect(rows.map((w) => [w.password, w.apiKey, w.secret, w.previousSecret].map((v) => v === null || SEALED.test(v)))).toEqual([
    [true, true, true, true],
    [true, true, true, true],
  ]);
  // GET answers the current signing secret in clear (docs/webhooks.md).
  expect((await api('GET', `/webhooks/${keyed.body.id}`, { key: t.secretKey })).body.content[0].secret_key).toBe(rotated.body.secret_key);

  expect(await webhookDelivered(basic.body.id)).toMatchObject({ state: 'SUCCESS' });
  expect(await webhookDelivered(keyed.body.id)).toMatchObject({ state: 'SUCCESS' });
  const [toBasic, toKeyed] = r.received;
  expect(toBasic.headers.authorization).toBe(`Basic ${Buffer.from(`bo:${password}`).toString('base64')}`);
  expect(toBasic.headers['webhook-signature']).toBe(expectedSignature(basic.body.secret_key, toBasic));
  expect(toKeyed.headers.api_key).toBe(apiKey);
  // The rotated-out secret still signs alongside the new one.
  expect(toKeyed.headers['webhook-signature']).toBe(`${expectedSignature(rotated.body.secret_key, toKeyed)} ${expectedSignature(keyed.body.secret_key, toKeyed)}`);
});

test('the SMTP password and the HTTP SMS password and token are stored sealed, and sends still log in', async () => {
  const sink = await smtpSink();
  const sms = await smsProvider();
  const smtpPassword = plain('smtp');
  const smsPassword = plain('basic');
  const smsToken = plain('bearer');
  const mail = await createId(t.secretKey, '/integrations', {
    name: 'Sealed SMTP', channel: 'EMAIL', provider: 'SMTP',
    settings: { host: '127.0.0.1', port: sink.port, secure: false, username: 'mailer', password: smtpPassword, from_address: 'news@shop.test' },
  });
  const smsSettings = (auth: object) => ({ url: sms.url, method: 'POST', auth, body_template: '{"to":"{{to}}","text":"{{message}}"}' });
  const basicSms = await createId(t.secretKey, '/integrations', { name: 'Basic SMS', channel: 'SMS', provider: 'HTTP', settings: smsSettings({ type: 'BASIC', username: 'sms', password: smsPassword }) });
  const bearerSms = await createId(t.secretKey, '/integrations', { name: 'Bearer SMS', channel: 'SMS', provider: 'HTTP', settings: smsSettings({ type: 'BEARER', token: smsToken }) });
  // A partial update that leaves the password out keeps it (sealed, not sealed twice).
  expect((await api('PUT', `/integrations/${mail}`, { key: t.secretKey, body: { name: 'Sealed SMTP 2' } })).status).toBe(200);

  const rows = await db().integration.findMany({ where: { id: { in: [mail, basicSms, bearerSms] } } });
  expect(rows).toHaveLength(3);
  const stored = JSON.stringify(rows);
  for (const secret of [smtpPassword, smsPassword, smsToken]) {
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(Buffer.from(secret).toString('base64'));
  }
  const byId = new Map(rows.map((i) => [i.id, i.settings as any]));
  expect([byId.get(mail).password, byId.get(basicSms).auth.password, byId.get(bearerSms).auth.token]).toEqual([
    expect.stringMatching(SEALED), expect.stringMatching(SEALED), expect.stringMatching(SEALED),
  ]);

  expect(await communicate(mail, 'EMAIL')).toMatchObject({ life_cycle_state: 'SENT' });
  expect(sink.logins).toEqual([{ username: 'mailer', password: smtpPassword }]);
  expect(await communicate(basicSms, 'SMS')).toMatchObject({ life_cycle_state: 'SENT' });
  expect(await communicate(bearerSms, 'SMS')).toMatchObject({ life_cycle_state: 'SENT' });
  expect(sms.auth).toEqual([`Basic ${Buffer.from(`sms:${smsPassword}`).toString('base64')}`, `Bearer ${smsToken}`]);
});

test('secrets stored in plain text before sealing still work, and reencrypt-secrets seals them', async () => {
  const r = await receiver();
  const sink = await smtpSink();
  const hook = await api('POST', '/webhooks', { key: t.secretKey, body: { name: 'Legacy', method: 'POST', url_endpoint: r.url, url_auth: 'API_KEY', api_key: plain('sealed') } });
  const mail = await createId(t.secretKey, '/integrations', {
    name: 'Legacy SMTP', channel: 'EMAIL', provider: 'SMTP',
    settings: { host: '127.0.0.1', port: sink.port, secure: false, username: 'mailer', password: plain('sealed'), from_address: 'news@shop.test' },
  });
  // What an installation from before sealing holds: the values in clear.
  const legacyKey = plain('legacy-key');
  const legacySecret = `whsec_${randomBytes(32).toString('base64')}`;
  const legacyPassword = plain('legacy-pw');
  await db().webhook.update({ where: { id: hook.body.id }, data: { apiKey: legacyKey, secret: legacySecret } });
  const current = await db().integration.findFirstOrThrow({ where: { id: mail } });
  await db().integration.update({ where: { id: mail }, data: { settings: { ...(current.settings as object), password: legacyPassword } } });

  expect((await api('GET', `/webhooks/${hook.body.id}`, { key: t.secretKey })).body.content[0].secret_key).toBe(legacySecret);
  expect(await webhookDelivered(hook.body.id)).toMatchObject({ state: 'SUCCESS' });
  expect(r.received[0].headers.api_key).toBe(legacyKey);
  expect(r.received[0].headers['webhook-signature']).toBe(expectedSignature(legacySecret, r.received[0]));
  expect(await communicate(mail, 'EMAIL')).toMatchObject({ life_cycle_state: 'SENT' });
  expect(sink.logins.at(-1)).toEqual({ username: 'mailer', password: legacyPassword });

  const out = JSON.parse(await adminCli(['reencrypt-secrets']));
  expect(out).toMatchObject({ webhooks: expect.any(Number), integrations: expect.any(Number) });
  expect(out.webhooks).toBeGreaterThanOrEqual(1);
  expect(out.integrations).toBeGreaterThanOrEqual(1);
  const row = await db().webhook.findFirstOrThrow({ where: { id: hook.body.id } });
  const settings = (await db().integration.findFirstOrThrow({ where: { id: mail } })).settings as { password: string };
  expect([row.apiKey, row.secret, settings.password]).toEqual([expect.stringMatching(SEALED), expect.stringMatching(SEALED), expect.stringMatching(SEALED)]);
  for (const secret of [legacyKey, legacyPassword, legacySecret]) expect(JSON.stringify([row, settings])).not.toContain(secret);

  expect(await webhookDelivered(hook.body.id)).toMatchObject({ state: 'SUCCESS' });
  expect(r.received[1].headers.api_key).toBe(legacyKey);
  expect(r.received[1].headers['webhook-signature']).toBe(expectedSignature(legacySecret, r.received[1]));
});
