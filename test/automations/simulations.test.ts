// Simulations (docs/automations.md "Simulations"): RECORD answers what the automation would do for
// one record, HISTORY replays it over a window; neither performs anything. Counted in the database
// (every table a run writes), at a local HTTP receiver and at an SMTP sink.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { openDatabase } from '../money/helpers';
import { effectRows } from './helpers';
import { purchaseBody } from '../loyalty/purchases/setup';
import { startSmtpSink } from '../communications/helpers';
import { caller, eventually, param, postWebhook, startReceiver } from '../automation-runs/helpers';
import { Client } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { connectTemporal } from '../support/temporal';
import { readOnlyTransaction } from '../../src/db/read-only';
import { scopedClient } from '../../src/db/tenancy';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
let db: Db;
let a: Tenant;
let other: Tenant;
let call: ReturnType<typeof caller>;
let webhookId: string;
let integrationId: string;

beforeAll(async () => {
  receiver = await startReceiver();
  smtp = await startSmtpSink();
  db = openDatabase();
  a = await createTenant('simulations');
  other = await createTenant('simulations other');
  call = caller(a.secretKey);
  webhookId = (await call('POST', '/webhooks', { name: 'CRM', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  integrationId = (await call('POST', '/integrations', {
    name: 'Sink', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: smtp.port, secure: false, from_address: 'shop@example.com' },
  })).id;
});

afterAll(async () => {
  await receiver?.close();
  await smtp?.close();
  await db?.$disconnect();
});

const firstName = (value: string) => [{ filters: [{ attribute: 'FIRST_NAME', operator: 'EQUAL', value }] }];

async function twoActionAutomation(state = 'INACTIVE'): Promise<string> {
  const { id } = await call('POST', '/automations', { name: `Welcome ${Math.random().toString(36).slice(2, 7)}`, entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: state });
  await call('POST', `/automations/${id}/actions`, {
    content: [
      { order: 1, ...postWebhook(webhookId, firstName('Alice')) },
      {
        order: 2, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER',
        adaptor_action_parameters: [param('subject', 'Welcome {{contact.first_name}}'), param('content', 'Hello {{contact.first_name}} {{contact.last_name}}'), param('integration_id', integrationId)],
        action_filters: [{ filters: [{ attribute: 'COUNTRY_CODE', operator: 'EQUAL', value: 'CY' }, { attribute: 'CONTACT_TYPE', operator: 'EQUAL', value: 'PERSON' }] }],
      },
    ],
  });
  return id;
}

const contact = async (first: string, country = 'CYP') => (await call('POST', '/contacts', {
  contact_type: 'PERSON', first_name: first, last_name: 'Sim', code: `SIM-${first}-${Math.random().toString(36).slice(2, 7)}`,
  emails: [{ email_address: `${first.toLowerCase()}@example.com`, is_primary: true }],
  addresses: [{ address_line_1: '1 Main St', town_city: 'Nicosia', postal_code: '1010', country_code: country, is_primary: true }],
})).id as string;

test('RECORD: each action\'s verdict, each filter\'s actual value, the effect rendered; nothing written or sent', async () => {
  const auto = await twoActionAutomation();
  const alice = await contact('Alice');
  const bob = await contact('Bob', 'GRC');
  const before = await effectRows(db, a.organisationId);

  const yes = await api('POST', `/automations/${auto}/simulations`, { key: a.secretKey, body: { entity_id: alice } });
  expect([yes.status, yes.text]).toEqual([200, expect.any(String)]);
  expect(yes.body.mode).toBe('RECORD');
  const [run] = yes.body.runs;
  expect(run.entity).toEqual({ type: 'CONTACTS', id: alice });
  expect(run.would_run).toBe(true);
  expect(run.actions.map((x: any) => [x.order, x.adaptor_action, x.verdict])).toEqual([[1, 'POST_WEBHOOK', 'WOULD_RUN'], [2, 'COMMUNICATE_CUSTOMER', 'WOULD_RUN']]);
  expect(run.actions[0].filters).toEqual([expect.objectContaining({ attribute: 'FIRST_NAME', operator: 'EQUAL', value: 'Alice', actual: 'Alice', passed: true, group: 0 })]);
  expect(run.actions[0].effect).toMatchObject({ kind: 'WEBHOOK', method: 'POST', url: receiver.url, body: { id: null, type: 'REGISTER_CONTACT', data: { contact_id: alice, entity: { type: 'CONTACTS', id: alice } } } });
  expect(run.actions[1].filters.map((f: any) => [f.attribute, f.actual, f.passed])).toEqual([['COUNTRY_CODE', 'CYP', true], ['CONTACT_TYPE', 'PERSON', true]]);
  expect(run.actions[1].effect).toMatchObject({ kind: 'COMMUNICATION', channel: 'EMAIL', recipient: 'alice@example.com', subject: 'Welcome Alice', content: 'Hello Alice Sim', integration_id: integrationId });

  // By code too, and an override of the event's attributes.
  const code = (await call('GET', `/contacts/${bob}`)).code;
  const no = (await call('POST', `/automations/${auto}/simulations`, { entity_id: code })).runs[0];
  expect(no.would_run).toBe(false);
  expect(no.actions.map((x: any) => x.verdict)).toEqual(['SKIPPED', 'SKIPPED']);
  expect(no.actions[0].reason).toBe('no filter group matched (group 1: FIRST_NAME EQUAL did not match)');
  expect(no.actions[0].filters[0]).toMatchObject({ actual: 'Bob', passed: false });
  expect(no.actions[1].filters.map((f: any) => [f.actual, f.passed])).toEqual([['GRC', false], ['PERSON', true]]);
  const overridden = (await call('POST', `/automations/${auto}/simulations`, { entity_id: bob, event: { FIRST_NAME: 'Alice' } })).runs[0];
  expect(overridden.actions.map((x: any) => x.verdict)).toEqual(['WOULD_RUN', 'SKIPPED']);

  expect(await effectRows(db, a.organisationId)).toEqual(before);
  // Give a sent request or message time to arrive, were there one.
  await new Promise((r) => setTimeout(r, 1500));
  expect(receiver.received).toHaveLength(0);
  expect(smtp.mails).toHaveLength(0);
});

test('RECORD: a refusal the run would record is WOULD_FAIL and the actions after it are not reached', async () => {
  const gone = (await call('POST', '/webhooks', { name: 'Gone', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const { id } = await call('POST', '/automations', { name: 'Fails', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  await call('POST', `/automations/${id}/actions`, { content: [{ order: 1, ...postWebhook(gone) }, { order: 2, ...postWebhook(webhookId) }] });
  await call('DELETE', `/webhooks/${gone}`);
  const run = (await call('POST', `/automations/${id}/simulations`, { entity_id: await contact('Carol') })).runs[0];
  expect(run.actions.map((x: any) => [x.verdict, x.reason])).toEqual([
    // What the run's FAILED record says (src/activities/automations.ts).
    ['WOULD_FAIL', 'INVALID_REQUEST: webhook_id: Webhook not found'],
    ['SKIPPED', expect.stringMatching(/^NOT_REACHED/)],
  ]);
});

test('RECORD: bad input names the field; another organisation\'s automation is 404', async () => {
  const auto = await twoActionAutomation();
  const post = (body: object, key = a.secretKey, id = auto) => api('POST', `/automations/${id}/simulations`, { key, body });
  const unknown = await post({ entity_id: '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10' });
  expect([unknown.status, unknown.body.attribute]).toEqual([400, 'entity_id']);
  expect((await post({ entity_id: 'NO-SUCH-CODE' })).body.attribute).toBe('entity_id');
  expect((await post({ entity_id: await contact('Dora'), event: { VOUCHER_NUMBER: 'x' } })).body.attribute).toBe('event.VOUCHER_NUMBER');
  expect((await post({})).body.attribute).toBe('entity_id');
  expect((await post({ entity_id: 'x', from_date: 1 })).body.attribute).toBe('from_date');
  expect((await post({ from_date: 100 })).body.attribute).toBe('to_date');
  expect((await post({ from_date: 100, to_date: 50 })).body.attribute).toBe('to_date');
  expect((await post({ event: { FIRST_NAME: 'x' }, from_date: 1, to_date: 2 })).body.attribute).toBe('event');
  const foreign = await post({ entity_id: await contact('Eve') }, other.secretKey);
  expect([foreign.status, foreign.body.code]).toEqual([404, 'NOT_FOUND']);
  // Their contact is no record of ours.
  const theirs = (await api('POST', '/contacts', { key: other.secretKey, body: { contact_type: 'PERSON', last_name: 'Theirs' } })).body.id;
  expect((await post({ entity_id: theirs })).body.attribute).toBe('entity_id');
});

test('the transaction a simulation judges in refuses every write', async () => {
  const org = scopedClient(db, a.organisationId);
  const write = readOnlyTransaction(org, a.organisationId, (_tx, sql) =>
    sql.rows(`UPDATE webhooks SET name = name WHERE organisation_id = $1`));
  await expect(write).rejects.toThrow(/read-only transaction/);
});

const DAY = 86_400;

/** Contacts registered `days` ago (their records back-dated: history the window finds). */
async function registeredAgo(first: string, country: string, days: number): Promise<string> {
  const id = await contact(first, country);
  await db.$executeRawUnsafe(`UPDATE contacts SET created_at = created_at - make_interval(days => $2) WHERE organisation_id = $1::uuid AND id = $3::uuid`, a.organisationId, days, id);
  return id;
}

test('HISTORY: 202 {id}, a workflow by the simulation\'s id; the summary by action and by day, samples in the RECORD shape; nothing but its row', async () => {
  const auto = await twoActionAutomation();
  const people: Array<[string, string, number]> = [];
  for (let i = 0; i < 12; i++) people.push([i % 4 === 0 ? 'Alice' : `Bob${i}`, i % 3 === 0 ? 'GRC' : 'CYP', 10 + (i % 3)]);
  for (const [first, country, days] of people) await registeredAgo(first, country, days);
  const before = await effectRows(db, a.organisationId);
  const now = Math.floor(Date.now() / 1000);

  const res = await api('POST', `/automations/${auto}/simulations`, { key: a.secretKey, body: { from_date: now - 13 * DAY, to_date: now - 9 * DAY } });
  expect([res.status, Object.keys(res.body)]).toEqual([202, ['id']]);
  const id = res.body.id;
  const connection = await connectTemporal();
  try {
    expect(await new Client({ connection }).workflow.getHandle(`automation-simulation:${id}`).result()).toBe('COMPLETED');
  } finally {
    await connection.close();
  }
  const sim = await call('GET', `/automations/${auto}/simulations/${id}`);
  const alices = people.filter(([f]) => f === 'Alice').length;
  const cypriots = people.filter(([, c]) => c === 'CYP').length;
  const any = people.filter(([f, c]) => f === 'Alice' || c === 'CYP').length;
  expect(sim).toMatchObject({ id, mode: 'HISTORY', automation_id: auto, state: 'COMPLETED', progress: { events_done: 12, events_total: 12 }, error: null });
  expect(sim.summary.events).toBe(12);
  expect(sim.summary.would_run).toBe(any);
  expect(sim.summary.by_action.map((x: any) => [x.order, x.adaptor_action, x.would_run, x.skipped, x.would_fail])).toEqual([
    [1, 'POST_WEBHOOK', alices, 12 - alices, 0], [2, 'COMMUNICATE_CUSTOMER', cypriots, 12 - cypriots, 0],
  ]);
  expect(sim.summary.by_action[0].skip_reasons).toEqual([{ reason: 'no filter group matched (group 1: FIRST_NAME EQUAL did not match)', count: 12 - alices }]);
  expect(sim.summary.by_day).toHaveLength(3);
  expect(sim.summary.by_day.map((d: any) => d.events)).toEqual([4, 4, 4]);
  for (const d of sim.summary.by_day) expect(d.timestamp % DAY).toBe(0);
  expect(sim.samples).toHaveLength(12);
  expect(sim.samples[0]).toEqual(expect.objectContaining({ entity: { type: 'CONTACTS', id: expect.any(String) }, would_run: expect.any(Boolean), actions: expect.any(Array) }));
  expect(sim.samples.map((x: any) => x.event.occurred_on)).toEqual([...sim.samples.map((x: any) => x.event.occurred_on)].sort());

  // Its row and the intent that started its workflow, audited; no effect of any kind.
  const after = await effectRows(db, a.organisationId);
  expect(after).toEqual({ ...before, workflow_intents: before.workflow_intents + 1, audit_entries: before.audit_entries + 1 });
  const intents = await db.$queryRawUnsafe<Array<{ workflow_type: string }>>(`SELECT workflow_type FROM workflow_intents WHERE organisation_id = $1::uuid AND workflow_id = $2`, a.organisationId, `automation-simulation:${id}`);
  expect(intents).toEqual([{ workflow_type: 'automationSimulationWorkflow' }]);
  expect(receiver.received).toHaveLength(0);
  expect(smtp.mails).toHaveLength(0);

  const list = await call('GET', `/automations/${auto}/simulations`);
  expect([list.content.map((x: any) => x.id), list.paging.total]).toEqual([[id], 1]);
  // Ended: it stays COMPLETED.
  expect(await call('POST', `/automations/${auto}/simulations/${id}/cancel`)).toEqual({ id, state: 'COMPLETED' });
  expect((await call('GET', `/automations/${auto}/simulations/${id}`)).state).toBe('COMPLETED');
  for (const path of [`/automations/${auto}/simulations/${id}`, `/automations/${auto}/simulations`]) {
    expect((await api('GET', path, { key: other.secretKey })).status).toBe(404);
  }
  // Anonymising a contact drops its samples (they hold its values); the counts stay.
  const sampled = sim.samples[0].event.contact_id;
  expect(sampled).toBe(sim.samples[0].entity.id);
  await call('POST', `/contacts/${sampled}/anonymize`);
  const cleared = await call('GET', `/automations/${auto}/simulations/${id}`);
  expect(cleared.samples.map((x: any) => x.event.contact_id)).toEqual(sim.samples.slice(1).map((x: any) => x.event.contact_id));
  expect(JSON.stringify(cleared.samples)).not.toContain(sampled);
  expect(cleared.summary).toEqual(sim.summary);

  const otherAuto = (await api('POST', '/automations', { key: other.secretKey, body: { name: 'Theirs', entity: 'CONTACTS', event: 'REGISTER_CONTACT' } })).body.id;
  expect((await api('GET', `/automations/${otherAuto}/simulations/${id}`, { key: other.secretKey })).status).toBe(404);
  expect((await api('POST', `/automations/${auto}/simulations/${id}/cancel`, { key: other.secretKey })).status).toBe(404);
}, 60_000);

test('every entity\'s record and every source of history: a record another entity\'s id does not name, the outbox for other types', async () => {
  const now = Math.floor(Date.now() / 1000);
  const replay = async (entity: string, event: string) => {
    const { id } = await call('POST', '/automations', { name: `${event} replay`, entity, event });
    await call('POST', `/automations/${id}/actions`, { content: [{ order: 1, ...postWebhook(webhookId) }] });
    // Each entity's record statement runs: an id of none of its records is 400 naming entity_id.
    const unknown = await api('POST', `/automations/${id}/simulations`, { key: a.secretKey, body: { entity_id: '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10' } });
    expect([event, unknown.status, unknown.body.attribute]).toEqual([event, 400, 'entity_id']);
    const sim = (await api('POST', `/automations/${id}/simulations`, { key: a.secretKey, body: { from_date: now - 600, to_date: now + 600 } })).body.id;
    return eventually(async () => {
      const s = await call('GET', `/automations/${id}/simulations/${sim}`);
      return s.state !== 'RUNNING' && s;
    }, 30_000, `the ${event} replay`);
  };
  for (const [entity, event] of [['PURCHASES', 'PURCHASE_POSTED'], ['VOUCHERS', 'VOUCHER_ISSUED'], ['WALLETS', 'WALLET_TRANSACTION_POSTED'], ['COMMUNICATIONS', 'COMMUNICATION_SENT']]) {
    expect(await replay(entity, event)).toMatchObject({ state: 'COMPLETED', progress: { events_done: 0, events_total: 0 } });
  }
  // UPDATE_CONTACT comes from the outbox: the update just made is the window's one event.
  const fay = await contact('Fay');
  await call('PUT', `/contacts/${fay}`, { first_name: 'Faye' });
  const updated = await replay('CONTACTS', 'UPDATE_CONTACT');
  expect([updated.state, updated.summary.events]).toEqual(['COMPLETED', 1]);
  expect(updated.samples[0]).toMatchObject({ entity: { id: fay }, event: { type: 'UPDATE_CONTACT', contact_id: fay }, would_run: true });
  expect(updated.samples[0].actions[0].effect.body.data).toMatchObject({ contact_id: fay, fields: ['first_name'], contact: { first_name: 'Faye' } });
}, 120_000);

test('a purchase: RECORD reads its facts, HISTORY finds it by its posting', async () => {
  const buyer = (await call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Gus', last_name: 'Buyer', accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] })).id;
  const bought = await api('POST', '/purchases', { key: a.secretKey, body: purchaseBody(buyer, 80) });
  expect(bought.status).toBe(200);
  const { id: auto } = await call('POST', '/automations', { name: 'Big spenders', entity: 'PURCHASES', event: 'PURCHASE_POSTED' });
  await call('POST', `/automations/${auto}/actions`, { content: [{ order: 1, ...postWebhook(webhookId, [{ filters: [{ attribute: 'TOTAL_AMOUNT', operator: 'GREATER', value: 50 }, { attribute: 'FIRST_NAME', operator: 'EQUAL', value: 'gus' }] }]) }] });
  const run = (await call('POST', `/automations/${auto}/simulations`, { entity_id: bought.body.id })).runs[0];
  expect(run.entity).toEqual({ type: 'PURCHASES', id: bought.body.id });
  expect(run.actions[0].filters.map((f: any) => [f.attribute, f.actual, f.passed])).toEqual([['TOTAL_AMOUNT', '80', true], ['FIRST_NAME', 'Gus', true]]);
  expect(run.actions[0].effect.body.data).toMatchObject({ purchase_id: bought.body.id, contact_id: buyer, currency_code: 'EUR' });
  const cheaper = (await call('POST', `/automations/${auto}/simulations`, { entity_id: bought.body.id, event: { TOTAL_AMOUNT: 20 } })).runs[0];
  expect(cheaper.actions[0]).toMatchObject({ verdict: 'SKIPPED', filters: [{ actual: 20, passed: false }, { passed: true }] });

  const now = Math.floor(Date.now() / 1000);
  const sim = (await api('POST', `/automations/${auto}/simulations`, { key: a.secretKey, body: { from_date: now - 600, to_date: now + 600 } })).body.id;
  const done = await eventually(async () => {
    const s = await call('GET', `/automations/${auto}/simulations/${sim}`);
    return s.state !== 'RUNNING' && s;
  }, 30_000, 'the purchase replay');
  expect([done.state, done.summary.events, done.summary.would_run]).toEqual(['COMPLETED', 1, 1]);
}, 60_000);
