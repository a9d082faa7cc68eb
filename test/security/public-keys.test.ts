// Public keys as client keys (issue 31, docs/communications.md "Public keys" and "Quotas"): a
// public key sits in client code, so anyone may hold it. It sends only to a contact's stored
// address, never past an opt-out, reads nothing others sent, posts plans no more often than the
// organisation's floor, and every send counts against per-channel quotas.
import type { Db } from '../../src/db/client';
import { automation, caller, eventually, param } from '../automation-runs/helpers';
import { createContact } from '../communications/helpers';
import { createId, expectError, keyWith, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

type Json = Record<string, any>;

let a: Tenant;
let root: Db;
let ada: string;

const nowS = () => Math.floor(Date.now() / 1000);
const send = (key: string, body: Json) => api('POST', '/communications', { key, body: { name: 'Note', channel: 'EMAIL', subject: 'Hello', content: 'Hi there', ...body } });
const written = (organisationId: string) => root.communication.count({ where: { organisationId } });

beforeAll(async () => {
  a = await createTenant('Public keys A');
  root = openDatabase();
  ada = await createContact(a.secretKey, { code: 'PK-ADA', first_name: 'Ada', last_name: 'Lovelace', email_address: 'ada@public-keys.test' });
});

afterAll(async () => {
  await root?.$disconnect();
});

describe('a public key sends only to the contact, as the contact wants', () => {
  test('a free recipient or ignore_preferences is 403 naming the field, and nothing is written', async () => {
    const quiet = await createContact(a.secretKey, { code: 'PK-QUIET', first_name: 'Quiet', email_address: 'quiet@public-keys.test', email_opt_out: true });
    const before = await written(a.organisationId);
    expectError(await send(a.publicKey, { contact_id: 'PK-ADA', recipient: 'victim@elsewhere.test' }), 403, 'FORBIDDEN', 'recipient');
    // Not even the contact's own address: a yes or no would tell which address a code has.
    expectError(await send(a.publicKey, { contact_id: 'PK-ADA', recipient: 'ada@public-keys.test' }), 403, 'FORBIDDEN', 'recipient');
    expectError(await send(a.publicKey, { contact_id: 'PK-QUIET', ignore_preferences: true }), 403, 'FORBIDDEN', 'ignore_preferences');
    expectError(await send(a.publicKey, { contact_id: 'PK-QUIET' }), 409, 'CONTACT_OPTED_OUT', 'contact_id');
    expect(await written(a.organisationId)).toBe(before);
    // A secret key still may do both.
    expect((await send(a.secretKey, { contact_id: quiet, ignore_preferences: true, recipient: 'desk@public-keys.test' })).status).toBe(200);
  });

  test("a public key's send goes to the contact's stored address", async () => {
    const { body } = await send(a.publicKey, { contact_id: 'PK-ADA' });
    const row = await root.communication.findUniqueOrThrow({ where: { id: body.id } });
    expect([row.recipient, row.publicKeyId !== null]).toEqual(['ada@public-keys.test', true]);
  });
});

describe('a public key reads nothing others sent', () => {
  test("a secret key's one-time code: no subject, content, recipient or name to a public key; all of it to the secret key", async () => {
    const { body } = await send(a.secretKey, { contact_id: ada, subject: 'Your code', content: 'Your one-time code is 482913' });
    const asPublic = (await api('GET', `/communications/${body.id}`, { key: a.publicKey })).body;
    expect(asPublic).toMatchObject({ id: body.id, recipient: null, sender: null, subject: null, content: null, rich_content: null, contact: { id: ada, name: null } });
    const listed = (await api('GET', `/communications?contact_id=${ada}&size=100`, { key: a.publicKey })).body.content.find((c: Json) => c.id === body.id);
    expect(listed).toMatchObject({ recipient: null, subject: null, content: null });
    expect(JSON.stringify((await api('GET', '/communications?size=100', { key: a.publicKey })).body)).not.toMatch(/482913|ada@public-keys\.test|Lovelace/);
    const asSecret = (await api('GET', `/communications/${body.id}`, { key: a.secretKey })).body;
    expect(asSecret).toMatchObject({ recipient: 'ada@public-keys.test', subject: 'Your code', content: 'Your one-time code is 482913', contact: { name: 'Ada Lovelace' } });
  });

  test('its own message: its text, but never the address; nor text the contact\'s values were rendered into', async () => {
    const plain = (await send(a.publicKey, { contact_id: 'PK-ADA', subject: 'Thanks', content: 'Thank you for your order' })).body.id;
    expect((await api('GET', `/communications/${plain}`, { key: a.publicKey })).body).toMatchObject({ subject: 'Thanks', content: 'Thank you for your order', recipient: null });
    // A code would otherwise resolve to the e-mail, phone and name it renders.
    const rendered = (await send(a.publicKey, { contact_id: 'PK-ADA', subject: 'Hi {{contact.first_name}}', content: 'Yours: {{contact.email}}' })).body.id;
    const read = (await api('GET', `/communications/${rendered}`, { key: a.publicKey })).body;
    expect(read).toMatchObject({ subject: null, content: null, recipient: null });
    // Another public key of the organisation does not read the first one's text.
    const other = JSON.parse(await adminKey('PUBLIC'));
    expect((await api('GET', `/communications/${plain}`, { key: other.key })).body).toMatchObject({ subject: null, content: null });
  });
});

async function adminKey(type: 'PUBLIC' | 'SECRET'): Promise<string> {
  const res = await api('POST', '/api_keys', { key: a.secretKey, body: { name: `another ${type}`, type } });
  expect(res.status).toBe(200);
  return JSON.stringify(res.body);
}

describe('a public key may hold less than the communication operations, never more', () => {
  test('communications:read alone reads and cannot send; a scope beyond 4.7 is refused', async () => {
    const made = await api('POST', '/api_keys', { key: a.secretKey, body: { name: 'read-only widget', type: 'PUBLIC', scopes: ['communications:read'] } });
    expect([made.status, made.body.scopes]).toEqual([200, ['communications:read']]);
    const reader = made.body.key as string;
    expect((await api('GET', '/communications?size=1', { key: reader })).status).toBe(200);
    expectError(await send(reader, { contact_id: 'PK-ADA' }), 403, 'FORBIDDEN');
    // Left out: the whole 4.7 set, as every public key made before could do.
    expect((await send(a.publicKey, { contact_id: 'PK-ADA' })).status).toBe(200);
    expectError(await api('POST', '/api_keys', { key: a.secretKey, body: { name: 'wide', type: 'PUBLIC', scopes: ['contacts'] } }), 400, 'INVALID_REQUEST', 'scopes.0');
    expectError(await api('POST', '/api_keys', { key: a.secretKey, body: { name: 'wide', type: 'PUBLIC', scopes: ['communications', '*'] } }), 400, 'INVALID_REQUEST', 'scopes.1');
    // Scopes never widen a public key past the communication operations.
    expectError(await api('GET', '/contacts?size=1', { key: reader }), 403, 'FORBIDDEN');
  });
});

describe('plans a public key posts tick no more often than the floor', () => {
  let segment: string;
  const plan = (extra: Json) => ({
    name: 'Public plan', start_date: nowS() - 60, preferred_channel: 'EMAIL', segments: [segment],
    contents: [{ language: 'eng', subject: 'News', plain_content: 'News' }], ...extra,
  });

  beforeAll(async () => {
    segment = await createId(a.secretKey, '/segments', { name: 'Public plan segment', type: 'STATIC', contact_ids: [ada] });
  });

  test('every minute POSTED is 403 naming frequency (create and update); daily passes; a DRAFT may say anything; a secret key is not held', async () => {
    expectError(await api('POST', '/communication_plans', { key: a.publicKey, body: plan({ frequency: '* * * * *', life_cycle_state: 'POSTED' }) }), 403, 'FORBIDDEN', 'frequency');
    // Irregular gaps count too: two ticks a minute apart once a day.
    expectError(await api('POST', '/communication_plans', { key: a.publicKey, body: plan({ frequency: '0,1 9 * * *', life_cycle_state: 'POSTED' }) }), 403, 'FORBIDDEN', 'frequency');
    const draft = (await api('POST', '/communication_plans', { key: a.publicKey, body: plan({ frequency: '* * * * *' }) })).body.id;
    expectError(await api('PUT', `/communication_plans/${draft}`, { key: a.publicKey, body: { life_cycle_state: 'POSTED' } }), 403, 'FORBIDDEN', 'frequency');
    expect((await api('GET', `/communication_plans/${draft}`, { key: a.secretKey })).body.life_cycle_state).toBe('DRAFT');
    const daily = await api('POST', '/communication_plans', { key: a.publicKey, body: plan({ frequency: '0 9 * * *', life_cycle_state: 'POSTED' }) });
    expect(daily.status).toBe(200);
    // The public key cannot make it faster afterwards, nor post a secret key's fast draft.
    expectError(await api('PUT', `/communication_plans/${daily.body.id}`, { key: a.publicKey, body: { frequency: '*/5 * * * *' } }), 403, 'FORBIDDEN', 'frequency');
    const fast = (await api('POST', '/communication_plans', { key: a.secretKey, body: plan({ frequency: '*/5 * * * *' }) })).body.id;
    expectError(await api('PUT', `/communication_plans/${fast}`, { key: a.publicKey, body: { life_cycle_state: 'POSTED' } }), 403, 'FORBIDDEN', 'frequency');
    for (const id of [daily.body.id, fast]) await api('DELETE', `/communication_plans/${id}`, { key: a.secretKey });
  });
});

describe('sending quotas', () => {
  let q: Tenant;
  let contact: string;
  beforeAll(async () => {
    q = await createTenant('Public keys quotas');
    contact = await createContact(q.secretKey, { code: 'Q-1', first_name: 'Quinn', email_address: 'quinn@quota.test' });
  });

  test('documented defaults; set by an admin only', async () => {
    const limits = (await api('GET', '/communication_limits', { key: q.secretKey })).body;
    expect(limits).toEqual({
      quotas: [
        { channel: 'EMAIL', per_hour: 5000, public_key_per_hour: 100 },
        { channel: 'SMS', per_hour: 500, public_key_per_hour: 20 },
        { channel: 'INAPP', per_hour: 20000, public_key_per_hour: 1000 },
      ],
      public_plan_min_interval_minutes: 1440,
    });
    const writer = await keyWith(q.secretKey, ['communications']);
    expectError(await api('PUT', '/communication_limits', { key: writer, body: { quotas: [{ channel: 'EMAIL', per_hour: 1e6, public_key_per_hour: 1e6 }] } }), 403, 'FORBIDDEN');
    expectError(await api('PUT', '/communication_limits', { key: q.publicKey, body: { public_plan_min_interval_minutes: 1 } }), 403, 'FORBIDDEN');
    expectError(await api('PUT', '/communication_limits', { key: q.secretKey, body: { quotas: [{ channel: 'EMAIL', per_hour: 1, public_key_per_hour: 1 }, { channel: 'EMAIL', per_hour: 2, public_key_per_hour: 2 }] } }), 400, 'INVALID_REQUEST', 'quotas');
    expect((await api('GET', '/communication_limits', { key: q.secretKey })).body).toEqual(limits);
  });

  test('past the quota a send is 429 QUOTA_EXCEEDED with Retry-After, whoever sends; public keys have their smaller share', async () => {
    const set = await api('PUT', '/communication_limits', { key: q.secretKey, body: { quotas: [{ channel: 'EMAIL', per_hour: 3, public_key_per_hour: 2 }] } });
    expect(set.body.quotas[0]).toEqual({ channel: 'EMAIL', per_hour: 3, public_key_per_hour: 2 });
    for (let i = 0; i < 2; i++) expect((await send(q.publicKey, { contact_id: contact })).status).toBe(200);
    const refused = await send(q.publicKey, { contact_id: contact });
    expectError(refused, 429, 'QUOTA_EXCEEDED', 'channel');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect((await send(q.secretKey, { contact_id: contact })).status).toBe(200);
    expectError(await send(q.secretKey, { contact_id: contact }), 429, 'QUOTA_EXCEEDED', 'channel');
    expect(await written(q.organisationId)).toBe(3);
    // Another channel has its own quota.
    expect((await send(q.secretKey, { contact_id: contact, channel: 'INAPP' })).status).toBe(200);
  });

  test('an automation past the quota records its action SKIPPED, saying why', async () => {
    const call = caller(q.secretKey);
    const auto = await automation(call, 'REGISTER_CONTACT', [
      { adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [param('subject', 'Welcome'), param('content', 'Hello')] },
    ]);
    const newcomer = (await call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Late', last_name: 'Comer', email_address: 'late@quota.test' })).id;
    const record = await eventually(async () => {
      const records = (await call('GET', `/adaptors/COMMUNICATIONS/actions/COMMUNICATE_CUSTOMER/records?automation_id=${auto}&size=100`)).content as Json[];
      return records.find((r) => r.entity.id === newcomer);
    }, 30_000, 'the action record');
    expect(record).toMatchObject({ status: 'SKIPPED', reason: expect.stringContaining('QUOTA_EXCEEDED') });
    expect(await root.communication.count({ where: { organisationId: q.organisationId, contactId: newcomer } })).toBe(0);
  });

  test("a plan's tick past the quota writes the rest FAILED with the reason, and sends them never", async () => {
    const t = await createTenant('Public keys plan quota');
    const contacts = [];
    for (let i = 0; i < 3; i++) contacts.push(await createContact(t.secretKey, { code: `PQ-${i}`, first_name: `P${i}`, email_address: `p${i}@quota.test` }));
    await api('PUT', '/communication_limits', { key: t.secretKey, body: { quotas: [{ channel: 'EMAIL', per_hour: 1, public_key_per_hour: 1 }] } });
    const segment = await createId(t.secretKey, '/segments', { name: 'Quota segment', type: 'STATIC', contact_ids: contacts });
    const plan = await createId(t.secretKey, '/communication_plans', {
      name: 'Quota plan', start_date: nowS() - 60, preferred_channel: 'EMAIL', frequency: '*/2 * * * * *', segments: [segment], life_cycle_state: 'POSTED',
      contents: [{ language: 'eng', subject: 'News', plain_content: 'News' }],
    });
    const rows = await eventually(async () => {
      const all = await root.communication.findMany({ where: { organisationId: t.organisationId, planId: plan } });
      return all.length >= 3 && all.some((r) => r.lifeCycleState === 'SENT') ? all : undefined;
    }, 30_000, 'the first tick');
    await api('DELETE', `/communication_plans/${plan}`, { key: t.secretKey });
    const firstTick = rows.filter((r) => r.planTick!.getTime() === Math.min(...rows.map((x) => x.planTick!.getTime())));
    expect(firstTick.map((r) => r.lifeCycleState).sort()).toEqual(['FAILED', 'FAILED', 'SENT']);
    for (const r of firstTick.filter((x) => x.lifeCycleState === 'FAILED')) expect(r.failureReason).toMatch(/^quota: .*1 EMAIL communications per hour/);
  });
});
