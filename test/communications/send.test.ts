// POST /communications and the send workflow (docs/communications.md "Communications"): a real
// SMTP server and a real HTTP SMS receiver inside the test; the SYSTEM mailer's outbox file.
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { ParsedMail } from 'mailparser';
import { createId, expectError, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';
import { createContact, settled, startSmtpSink, trackingPath } from './helpers';

let a: Tenant;
let b: Tenant;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let smtpPort: number;
let mails: ParsedMail[] = [];
let contactId: string;

interface Hit { headers: http.IncomingHttpHeaders; body: string }
const receivers: http.Server[] = [];
async function receiver(status: number): Promise<{ url: string; hits: Hit[] }> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      hits.push({ headers: req.headers, body });
      res.statusCode = status;
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receivers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`, hits };
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Communications send A'), createTenant('Communications send B')]);
  smtp = await startSmtpSink();
  smtpPort = smtp.port;
  mails = smtp.mails;
  contactId = await createContact(a.secretKey, {
    code: 'CM-1', first_name: 'Ada <b>&', last_name: 'Lovelace', preferred_language_code: 'ell',
    email_address: 'ada@example.com', phones: [{ number: '+357 99 000 111' }],
  });
});

afterAll(async () => {
  await smtp.close();
  for (const s of receivers) s.close();
});

async function waitForMail(to: string, timeoutMs = 15_000): Promise<ParsedMail> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = mails.find((m) => m.to && !Array.isArray(m.to) && m.to.text === to);
    if (found || Date.now() > until) return found!;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('EMAIL through an SMTP integration: a template rendered (HTML-escaped), tracked, SENT', async () => {
  const integration = await createId(a.secretKey, '/integrations', {
    name: 'Test SMTP', channel: 'EMAIL', provider: 'SMTP',
    settings: { host: '127.0.0.1', port: smtpPort, secure: false, from_address: 'news@shop.test', from_name: 'Shop' },
  });
  const template = await createId(a.secretKey, '/communication_templates', {
    name: 'Welcome',
    contents: [
      { language: 'eng', subject: 'Welcome {{contact.first_name}}', plain_content: 'Hi {{contact.first_name}}', rich_content: '<p>Hi {{contact.first_name}}</p><a href="https://shop.test/offer?a=1&amp;b=2">Offer</a>' },
      { language: 'ell', subject: 'Kalos {{contact.last_name}}', plain_content: 'Geia {{contact.first_name}}', rich_content: '<p>Geia {{contact.first_name}}</p><a href="https://shop.test/el">Offer</a>' },
    ],
  });
  // No language: the contact's preferred one (ell).
  const id = await createId(a.publicKey, '/communications', { name: 'Welcome mail', contact_id: 'CM-1', channel: 'EMAIL', integration_id: integration, template_id: template });
  const mail = await waitForMail('ada@example.com');
  expect(mail).toBeDefined();
  expect(mail.subject).toBe('Kalos Lovelace');
  expect(mail.text?.trim()).toBe('Geia Ada <b>&');
  expect(mail.messageId).toBe(`<communication-${id}@backoffice>`);
  expect(mail.from?.text).toContain('news@shop.test');
  const html = String(mail.html);
  expect(html).toContain('<p>Geia Ada &lt;b&gt;&amp;</p>');
  expect(html).not.toContain('href="https://shop.test/el"');
  const c = await settled(a.secretKey, id);
  expect(c).toMatchObject({
    id, name: 'Welcome mail', life_cycle_state: 'SENT', channel: 'EMAIL', language: 'ell', sender: 'news@shop.test', recipient: 'ada@example.com',
    subject: 'Kalos Lovelace', content: 'Geia Ada <b>&', is_viewed: false, viewed_on: null, clicked_on: null, is_archived: false,
    contact: { id: contactId, name: 'Ada <b>& Lovelace', code: 'CM-1' },
  });

  // Tracking: the pixel marks it viewed (first view kept), the link redirects and marks the first click.
  const pixel = /<img src="([^"]+\.gif)"/.exec(html)![1];
  const link = /href="([^"]+\/click\?u=[^"]+)"/.exec(html)![1];
  const seen = await api('GET', trackingPath(pixel));
  expect(seen.status).toBe(200);
  expect(seen.headers['content-type']).toBe('image/gif');
  const viewed = (await api('GET', `/communications/${id}`, { key: a.secretKey })).body;
  expect(viewed.is_viewed).toBe(true);
  expect(viewed.viewed_on).toEqual(expect.any(Number));
  const click = await api('GET', trackingPath(link));
  expect(click.status).toBe(302);
  expect(click.headers.location).toBe('https://shop.test/el');
  const clicked = (await api('GET', `/communications/${id}`, { key: a.secretKey })).body;
  expect(clicked.clicked_on).toEqual(expect.any(Number));
  await new Promise((r) => setTimeout(r, 1100));
  await api('GET', trackingPath(pixel));
  expect((await api('GET', trackingPath(link))).status).toBe(302);
  const again = (await api('GET', `/communications/${id}`, { key: a.secretKey })).body;
  expect({ viewed: again.viewed_on, clicked: again.clicked_on }).toEqual({ viewed: viewed.viewed_on, clicked: clicked.clicked_on });

  // A tampered token, another URL, or the token moved to another communication: 404.
  const pixelPath = trackingPath(pixel);
  const tampered = pixelPath.replace(/(.)\.gif$/, (_w, ch: string) => `${ch === 'A' ? 'B' : 'A'}.gif`);
  expect((await api('GET', tampered)).status).toBe(404);
  const linkPath = trackingPath(link);
  expect((await api('GET', linkPath.replace(/\?u=.*$/, `?u=${encodeURIComponent('https://evil.test/')}`))).status).toBe(404);
  const other = await createId(a.secretKey, '/communications', { name: 'Other', contact_id: contactId, channel: 'INAPP', content: 'x' });
  expect((await api('GET', pixelPath.replace(id, other))).status).toBe(404);
  expect((await api('GET', linkPath.replace(id, other))).status).toBe(404);
  expect((await api('GET', `/communications/${other}`, { key: a.secretKey })).body.is_viewed).toBe(false);
});

test('EMAIL without an integration: the SYSTEM mailer writes the outbox file', async () => {
  const contact = await createContact(b.secretKey, { first_name: 'Bob', email_address: 'bob@example.com' });
  const id = await createId(b.secretKey, '/communications', { name: 'Note', contact_id: contact, channel: 'EMAIL', subject: 'Hello', content: 'Plain <text>' });
  const c = await settled(b.secretKey, id);
  expect(c).toMatchObject({ life_cycle_state: 'SENT', recipient: 'bob@example.com', integration_id: null, sender: expect.any(String) });
  const file = path.join(testState().dataDir, 'outbox', `communication-${id}@backoffice.eml`);
  expect(existsSync(file)).toBe(true);
  const eml = readFileSync(file, 'utf8');
  expect(eml).toMatch(/^To: bob@example\.com\r$/m);
  expect(eml).toMatch(/^Subject: Hello\r$/m);
});

test('SMS through the HTTP provider: the rendered body and auth reach the receiver', async () => {
  const rx = await receiver(200);
  const integration = await createId(a.secretKey, '/integrations', {
    name: 'SMS gateway', channel: 'SMS', provider: 'HTTP',
    settings: { url: rx.url, method: 'POST', auth: { type: 'BEARER', token: 'tok-1' }, body_template: '{"to":"{{to}}","text":"{{message}}","from":"{{from}}"}', from: 'SHOP' },
  });
  const id = await createId(a.secretKey, '/communications', { name: 'Code', contact_id: contactId, channel: 'SMS', integration_id: integration, content: 'Your "code" is 42' });
  const c = await settled(a.secretKey, id);
  expect(c).toMatchObject({ life_cycle_state: 'SENT', recipient: '+357 99 000 111', sender: 'SHOP' });
  expect(rx.hits).toHaveLength(1);
  expect(rx.hits[0].headers.authorization).toBe('Bearer tok-1');
  expect(JSON.parse(rx.hits[0].body)).toEqual({ to: '+357 99 000 111', text: 'Your "code" is 42', from: 'SHOP' });
});

test('SMS: a provider answering 500 every time ends FAILED after the retries; a 400 at once', async () => {
  const down = await receiver(500);
  const refusing = await receiver(400);
  const settings = (url: string) => ({ url, method: 'POST', auth: { type: 'NONE' }, body_template: 'to={{to}}&msg={{message}}' });
  const i500 = await createId(a.secretKey, '/integrations', { name: 'Down', channel: 'SMS', provider: 'HTTP', settings: settings(down.url) });
  const i400 = await createId(a.secretKey, '/integrations', { name: 'Refusing', channel: 'SMS', provider: 'HTTP', settings: settings(refusing.url) });
  const [id500, id400] = await Promise.all([
    createId(a.secretKey, '/communications', { name: 'x', contact_id: contactId, channel: 'SMS', integration_id: i500, content: 'hi' }),
    createId(a.secretKey, '/communications', { name: 'y', contact_id: contactId, channel: 'SMS', integration_id: i400, content: 'hi' }),
  ]);
  const [c500, c400] = await Promise.all([settled(a.secretKey, id500), settled(a.secretKey, id400)]);
  expect(c500).toMatchObject({ life_cycle_state: 'FAILED', failure_reason: 'SMS provider answered 500', sent_on: null });
  expect(down.hits).toHaveLength(3);
  // A form template: each value URL-encoded (docs/communications.md "HTTP SMS provider").
  expect(down.hits[0].body).toBe('to=%2B357%2099%20000%20111&msg=hi');
  expect(c400).toMatchObject({ life_cycle_state: 'FAILED', failure_reason: 'SMS provider answered 400' });
  expect(refusing.hits).toHaveLength(1);
}, 30_000);

test('INAPP: nothing to send, SENT', async () => {
  const id = await createId(a.secretKey, '/communications', { name: 'Inbox', contact_id: contactId, channel: 'INAPP', subject: 'S', content: 'Hello' });
  expect(await settled(a.secretKey, id)).toMatchObject({ life_cycle_state: 'SENT', recipient: null, sender: null });
});

test('opt-out: 409 CONTACT_OPTED_OUT unless ignore_preferences; anonymized: 409', async () => {
  const out = await createContact(a.secretKey, { first_name: 'Out', email_address: 'out@example.com', phones: [{ number: '123' }], email_opt_out: true, sms_opt_out: true });
  const body = { name: 'n', contact_id: out, channel: 'EMAIL', subject: 's', content: 'c' };
  expectError(await api('POST', '/communications', { key: a.secretKey, body }), 409, 'CONTACT_OPTED_OUT', 'contact_id');
  expectError(await api('POST', '/communications', { key: a.secretKey, body: { ...body, channel: 'SMS' } }), 409, 'CONTACT_OPTED_OUT', 'contact_id');
  const id = await createId(a.secretKey, '/communications', { ...body, ignore_preferences: true });
  expect(await settled(a.secretKey, id)).toMatchObject({ life_cycle_state: 'SENT', recipient: 'out@example.com' });
  expect((await api('POST', `/contacts/${out}/anonymize`, { key: a.secretKey })).status).toBe(200);
  expectError(await api('POST', '/communications', { key: a.secretKey, body: { ...body, ignore_preferences: true } }), 409, 'CONTACT_ANONYMIZED', 'contact_id');
});

test('refusals name the field', async () => {
  const bare = await createContact(b.secretKey, { first_name: 'Bare' });
  const post = (key: string, body: object) => api('POST', '/communications', { key, body });
  expectError(await post(b.secretKey, { name: 'n', contact_id: bare, channel: 'EMAIL', subject: 's', content: 'c' }), 400, 'INVALID_REQUEST', 'recipient');
  expectError(await post(b.secretKey, { name: 'n', contact_id: bare, channel: 'SMS', recipient: '123', content: 'c' }), 400, 'INVALID_REQUEST', 'integration_id');
  expectError(await post(b.secretKey, { name: 'n', contact_id: bare, channel: 'EMAIL', recipient: 'x@example.com', subject: 's' }), 400, 'INVALID_REQUEST', 'content');
  const inapp = await createId(b.secretKey, '/integrations', { name: 'In app', channel: 'INAPP', provider: 'INAPP' });
  expectError(await post(b.secretKey, { name: 'n', contact_id: bare, channel: 'EMAIL', integration_id: inapp, recipient: 'x@example.com', subject: 's', content: 'c' }), 400, 'INVALID_REQUEST', 'integration_id');
  expectError(await post(b.secretKey, { name: 'n', contact_id: UNKNOWN_ID, channel: 'INAPP', content: 'c' }), 400, 'INVALID_REQUEST', 'contact_id');
  // Another organisation's contact is unknown here.
  expectError(await post(b.secretKey, { name: 'n', contact_id: contactId, channel: 'INAPP', content: 'c' }), 400, 'INVALID_REQUEST', 'contact_id');
});

test('read, list with filters, archive; another organisation: 404', async () => {
  const id = await createId(a.publicKey, '/communications', { name: 'Listed', contact_id: contactId, channel: 'INAPP', content: 'hello' });
  await settled(a.secretKey, id);
  const list = await api('GET', `/communications?contact_id=${contactId}&channel=INAPP&life_cycle_state=SENT&sort=name&order=asc&size=100`, { key: a.publicKey });
  expect(list.status).toBe(200);
  const item = list.body.content.find((c: { id: string }) => c.id === id);
  expect(item).toMatchObject({ id, contact_id: contactId, channel: 'INAPP', life_cycle_state: 'SENT' });
  expect(item.contact).toBeUndefined();
  expect(list.body.content.every((c: { channel: string }) => c.channel === 'INAPP')).toBe(true);
  expect((await api('GET', '/communications?life_cycle_state=FAILED&channel=INAPP', { key: a.secretKey })).body.content).toEqual([]);
  expectError(await api('PUT', `/communications/${id}`, { key: a.publicKey, body: { is_archived: true } }), 403, 'FORBIDDEN');
  expect((await api('PUT', `/communications/${id}`, { key: a.secretKey, body: { is_archived: true } })).body).toEqual({ id });
  expect((await api('GET', `/communications/${id}`, { key: a.secretKey })).body.is_archived).toBe(true);
  expectError(await api('PUT', `/communications/${id}`, { key: a.secretKey, body: { is_archived: true, name: 'x' } }), 400, 'INVALID_REQUEST', 'name');
  expectError(await api('GET', `/communications/${id}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  expectError(await api('PUT', `/communications/${id}`, { key: b.secretKey, body: { is_archived: false } }), 404, 'NOT_FOUND');
  expect((await api('GET', `/communications?contact_id=${contactId}`, { key: b.secretKey })).body.content).toEqual([]);
  expectError(await api('GET', '/communications'), 401, 'INVALID_CREDENTIAL');
});
