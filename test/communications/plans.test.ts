// Communication plans (docs/communications.md "Plans"): the CRUD and its refusals, and the plan
// workflow ticking every 2 seconds against a real SMTP server: one communication per reachable
// contact and tick, opt-outs honoured, a PUT picked up, DRAFT and DELETE ending it.
import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { createId, expectError, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createContact, eventually, startSmtpSink } from './helpers';
import { connectTemporal } from '../support/temporal';

let a: Tenant;
let b: Tenant;
let db: Db;
let connection: Connection;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let smtpIntegration: string;
const nowS = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Plans A'), createTenant('Plans B')]);
  db = openDatabase();
  connection = await connectTemporal();
  sink = await startSmtpSink();
  smtpIntegration = await createId(a.secretKey, '/integrations', {
    name: 'Plan SMTP', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'plans@shop.test' },
  });
});

afterAll(async () => {
  await sink.close();
  await connection.close();
  await db.$disconnect();
});

const workflowStatus = async (planId: string) =>
  (await new Client({ connection }).workflow.getHandle(`communication-plan:${planId}`).describe()).status.name;

const basePlan = (segments: string[], extra: object = {}) => ({
  name: 'Weekly', start_date: nowS() - 60, preferred_channel: 'EMAIL', frequency: '0 9 * * 1', segments,
  contents: [{ language: 'eng', subject: 'Hello {{contact.first_name}}', plain_content: 'Hi {{contact.first_name}}' }],
  ...extra,
});

test('create, read, list, update and delete; the refusals name their field', async () => {
  const c = await createContact(a.secretKey, { first_name: 'Crud', email_address: 'crud@plan.test' });
  const segment = await createId(a.secretKey, '/segments', { name: 'Crud segment', type: 'STATIC', contact_ids: [c] });
  const start = nowS() - 60;
  // The public key is admitted here (spec 5.5).
  const id = await createId(a.publicKey, '/communication_plans', basePlan([segment], { name: 'Crud plan', start_date: start, integrations: [smtpIntegration] }));
  const read = await api('GET', `/communication_plans/${id}`, { key: a.publicKey });
  expect(read.status).toBe(200);
  expect(read.body).toEqual({
    id, name: 'Crud plan', start_date: start, end_date: null, life_cycle_state: 'DRAFT', preferred_channel: 'EMAIL', frequency: '0 9 * * 1',
    next_tick_on: null,
    segments: [{ id: segment, name: 'Crud segment' }],
    integrations: [{ id: smtpIntegration, name: 'Plan SMTP', channel: 'EMAIL' }],
    contents: [{ language: 'eng', subject: 'Hello {{contact.first_name}}', rich_content: null, plain_content: 'Hi {{contact.first_name}}' }],
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  const list = await api('GET', '/communication_plans?name=crud&sort=name&order=ASC', { key: a.secretKey });
  expect(list.status).toBe(200);
  expect(list.body.content.map((p: { id: string }) => p.id)).toEqual([id]);
  expect(list.body.content[0]).toMatchObject({ id, name: 'Crud plan', start_date: start, end_date: null, life_cycle_state: 'DRAFT', integrations: [{ id: smtpIntegration }] });
  expect((await api('GET', '/communication_plans', { key: b.secretKey })).body.content).toEqual([]);
  expect((await api('GET', `/communication_plans/${id}`, { key: b.secretKey })).status).toBe(404);

  const bad = async (body: object, attribute: string, route = '/communication_plans', method = 'POST') =>
    expectError(await api(method, route, { key: a.secretKey, body }), 400, 'INVALID_REQUEST', attribute);
  await bad(basePlan([segment], { frequency: 'every monday' }), 'frequency');
  await bad(basePlan([segment], { frequency: '* * *' }), 'frequency');
  await bad(basePlan([segment], { frequency: '0 0 0 * * * *' }), 'frequency');
  await bad(basePlan([segment], { frequency: '61 * * * *' }), 'frequency');
  await bad(basePlan([segment], { end_date: start - 1 }), 'end_date');
  expectError(await api('POST', '/communication_plans', { key: a.secretKey, body: basePlan([UNKNOWN_ID]) }), 400, 'INVALID_REQUEST', 'segments.0');
  expectError(await api('POST', '/communication_plans', { key: a.secretKey, body: basePlan([segment], { integrations: [UNKNOWN_ID] }) }), 400, 'INVALID_REQUEST', 'integrations.0');
  await bad(basePlan([segment, segment]), 'segments.1');
  await bad(basePlan([]), 'segments');
  const second = await createId(a.secretKey, '/integrations', { name: 'Second mailer', channel: 'EMAIL', provider: 'SYSTEM' });
  await bad(basePlan([segment], { integrations: [smtpIntegration, second] }), 'integrations.1');
  await bad(basePlan([segment], { contents: [{ language: 'eng', plain_content: 'no subject' }] }), 'contents.0.subject');
  await bad(basePlan([segment], { preferred_channel: 'SMS' }), 'integrations');
  await bad({ frequency: 'nope' }, 'frequency', `/communication_plans/${id}`, 'PUT');
  await bad({ end_date: start }, 'end_date', `/communication_plans/${id}`, 'PUT');
  await bad({ life_cycle_state: 'ARCHIVED' }, 'life_cycle_state', `/communication_plans/${id}`, 'PUT');
  expect((await api('PUT', `/communication_plans/${id}`, { key: b.secretKey, body: { name: 'x' } })).status).toBe(404);

  // A segment or integration a plan names cannot be deleted.
  expectError(await api('DELETE', `/segments/${segment}`, { key: a.secretKey }), 409, 'IN_USE');
  expectError(await api('DELETE', `/integrations/${smtpIntegration}`, { key: a.secretKey }), 409, 'IN_USE');

  expect((await api('PUT', `/communication_plans/${id}`, { key: a.secretKey, body: { name: 'Crud plan 2', end_date: start + 86_400 * 365 } })).status).toBe(200);
  expect((await api('GET', `/communication_plans/${id}`, { key: a.secretKey })).body).toMatchObject({ name: 'Crud plan 2', end_date: start + 86_400 * 365, segments: [{ id: segment }] });
  expect((await api('DELETE', `/communication_plans/${id}`, { key: b.secretKey })).status).toBe(404);
  expect((await api('DELETE', `/communication_plans/${id}`, { key: a.secretKey })).status).toBe(200);
  expect((await api('GET', `/communication_plans/${id}`, { key: a.secretKey })).status).toBe(404);
  expect((await api('DELETE', `/segments/${segment}`, { key: a.secretKey })).status).toBe(200);
});

test('a POSTED plan sends each tick once per reachable contact; PUT is picked up; DRAFT and DELETE end it', async () => {
  const ada = await createContact(a.secretKey, { first_name: 'Ada', email_address: 'ada@plan.test', preferred_language_code: 'ell' });
  const optedOut = await createContact(a.secretKey, { first_name: 'Opted', email_address: 'opted@plan.test', email_opt_out: true });
  const noEmail = await createContact(a.secretKey, { first_name: 'Nomail' });
  const dee = await createContact(a.secretKey, { first_name: 'Dee', email_address: 'dee@plan.test' });
  const s1 = await createId(a.secretKey, '/segments', { name: 'Tick one', type: 'STATIC', contact_ids: [ada, optedOut, noEmail] });
  const s2 = await createId(a.secretKey, '/segments', { name: 'Tick two', type: 'STATIC', contact_ids: [ada, dee] });
  const id = await createId(a.secretKey, '/communication_plans', basePlan([s1, s2], {
    name: 'Every two seconds', frequency: '*/2 * * * * *', integrations: [smtpIntegration], life_cycle_state: 'POSTED',
    contents: [
      { language: 'eng', subject: 'Hello {{contact.first_name}}', plain_content: 'Hi {{contact.first_name}}' },
      { language: 'ell', subject: 'Geia {{contact.first_name}}', plain_content: 'Geia sou {{contact.first_name}}' },
    ],
  }));
  const plan = (await api('GET', `/communication_plans/${id}`, { key: a.secretKey })).body;
  expect(plan.next_tick_on).toBeGreaterThanOrEqual(nowS());
  expect(plan.next_tick_on % 2).toBe(0);

  const rows = () => db.communication.findMany({ where: { planId: id }, orderBy: [{ planTick: 'asc' }, { contactId: 'asc' }] });
  const sentTicks = async (n: number) => {
    const all = await rows();
    const ticks = [...new Set(all.map((r) => r.planTick!.getTime()))];
    return ticks.length >= n && all.every((r) => r.lifeCycleState === 'SENT') ? all : undefined;
  };
  const first = await eventually(() => sentTicks(2), 30_000, 'two sent ticks');

  // Each tick: Ada (in both segments) once, Dee once; the opted-out and the address-less contacts never.
  const byTick = new Map<number, string[]>();
  for (const r of first) byTick.set(r.planTick!.getTime(), [...(byTick.get(r.planTick!.getTime()) ?? []), r.contactId]);
  for (const [tick, contacts] of byTick) {
    expect(tick % 2000).toBe(0);
    expect(contacts.sort()).toEqual([ada, dee].sort());
  }
  const adaRow = first.find((r) => r.contactId === ada)!;
  expect(adaRow).toMatchObject({ name: 'Every two seconds', channel: 'EMAIL', language: 'ell', subject: 'Geia Ada', content: 'Geia sou Ada', recipient: 'ada@plan.test', integrationId: smtpIntegration, sender: 'plans@shop.test' });
  expect(first.find((r) => r.contactId === dee)).toMatchObject({ language: 'eng', subject: 'Hello Dee' });
  // Read through the API like any communication.
  expect((await api('GET', `/communications/${adaRow.id}`, { key: a.secretKey })).body).toMatchObject({ name: 'Every two seconds', life_cycle_state: 'SENT', subject: 'Geia Ada' });

  // A PUT while POSTED is picked up by the running workflow.
  expect((await api('PUT', `/communication_plans/${id}`, { key: a.secretKey, body: { contents: [{ language: 'eng', subject: 'Changed {{contact.first_name}}', plain_content: 'New' }] } })).status).toBe(200);
  const changedAt = Date.now();
  await eventually(async () => (await rows()).some((r) => r.subject === 'Changed Dee' && r.lifeCycleState === 'SENT'), 20_000, 'a tick with the new contents');
  expect((await rows()).filter((r) => r.planTick!.getTime() > changedAt + 2000).every((r) => r.subject?.startsWith('Changed'))).toBe(true);

  // DRAFT ends the workflow: no tick after it.
  expect((await api('PUT', `/communication_plans/${id}`, { key: a.secretKey, body: { life_cycle_state: 'DRAFT' } })).status).toBe(200);
  await eventually(async () => (await workflowStatus(id)) === 'COMPLETED', 15_000, 'the workflow to end');
  const atDraft = (await rows()).length;
  await new Promise((r) => setTimeout(r, 4500));
  expect((await rows()).length).toBe(atDraft);
  expect((await api('GET', `/communication_plans/${id}`, { key: a.secretKey })).body.next_tick_on).toBeNull();

  // Every SENT row is exactly one mail (its stable Message-ID), none sent twice.
  const sent = (await rows()).filter((r) => r.lifeCycleState === 'SENT');
  const ids = sink.mails.map((m) => m.messageId).filter((m) => sent.some((r) => m === `<communication-${r.id}@backoffice>`));
  expect(ids.length).toBe(sent.length);
  expect(new Set(ids).size).toBe(ids.length);
  expect(sink.mails.some((m) => m.to && !Array.isArray(m.to) && /opted@|nomail/i.test(m.to.text))).toBe(false);

  // POSTED again starts it again; DELETE ends it and keeps the communications, unlinked.
  expect((await api('PUT', `/communication_plans/${id}`, { key: a.secretKey, body: { life_cycle_state: 'POSTED' } })).status).toBe(200);
  await eventually(async () => (await rows()).length > atDraft, 15_000, 'a tick after posting again');
  expect((await api('DELETE', `/communication_plans/${id}`, { key: a.secretKey })).status).toBe(200);
  await eventually(async () => (await workflowStatus(id)) === 'COMPLETED', 15_000, 'the workflow to end after DELETE');
  const kept = await db.communication.count({ where: { organisationId: a.organisationId, name: 'Every two seconds', planId: null } });
  expect(kept).toBeGreaterThan(atDraft);
  expect(await db.communication.count({ where: { organisationId: a.organisationId, name: 'Every two seconds', lifeCycleState: 'PENDING' } })).toBe(0);
}, 120_000);

test('a plan ends by itself after its end date', async () => {
  const c = await createContact(a.secretKey, { first_name: 'Ends', email_address: 'ends@plan.test' });
  const segment = await createId(a.secretKey, '/segments', { name: 'Ends', type: 'STATIC', contact_ids: [c] });
  const id = await createId(a.secretKey, '/communication_plans', basePlan([segment], {
    name: 'Short', frequency: '* * * * * *', start_date: nowS(), end_date: nowS() + 3, integrations: [smtpIntegration], life_cycle_state: 'POSTED',
  }));
  await eventually(async () => (await workflowStatus(id)) === 'COMPLETED', 20_000, 'the workflow to finish');
  const rows = await db.communication.findMany({ where: { planId: id } });
  expect(rows.length).toBeGreaterThanOrEqual(1);
  expect(rows.length).toBeLessThanOrEqual(4);
  const end = (await api('GET', `/communication_plans/${id}`, { key: a.secretKey })).body.end_date as number;
  expect(rows.every((r) => r.planTick!.getTime() <= end * 1000)).toBe(true);
  expect((await api('GET', `/communication_plans/${id}`, { key: a.secretKey })).body.next_tick_on).toBeNull();
}, 60_000);
