// Simulations (docs/automations.md "Simulations"): RECORD answers what the automation would do for
// one record, HISTORY replays it over a window; neither performs anything. Counted in the database
// (every table a run writes), at a local HTTP receiver and at an SMTP sink.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { openDatabase } from '../money/helpers';
import { startSmtpSink } from '../communications/helpers';
import { caller, eventually, param, postWebhook, startReceiver } from '../automation-runs/helpers';
import type { Db } from '../../src/db/client';
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

/** Rows of every table a run (or a simulation) could write, in the organisation. */
export async function effectRows(database: Db, organisationId: string): Promise<Record<string, number>> {
  const tables = ['adaptor_action_records', 'webhook_requests', 'communications', 'outbox_events', 'workflow_intents', 'audit_entries', 'contact_custom_fields'];
  const out: Record<string, number> = {};
  for (const t of tables) {
    const [row] = await database.$queryRawUnsafe<Array<{ n: number }>>(`SELECT count(*)::int AS n FROM ${t} WHERE organisation_id = $1::uuid`, organisationId);
    out[t] = row.n;
  }
  return out;
}

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
