// Anonymisation reaches everything a run wrote (docs/contacts.md "Anonymisation", docs/security.md
// "Workflows and personal data"): after POST /contacts/{id}/anonymize the contact's distinctive
// name, e-mail, phone and code are in no row of the tables automations write, and never were in
// the Temporal histories of the service's workflows about the contact (inputs carry ids only).
import { randomInt } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { automation, caller, eventually, param, postWebhook, startReceiver } from '../automation-runs/helpers';
import { openDatabase } from '../money/helpers';
import { createTenant, type Tenant } from '../support/tenants';
import { connectTemporal } from '../support/temporal';

const TABLES = ['contacts', 'contact_emails', 'contact_phones', 'outbox_events', 'webhook_requests', 'webhook_attempts', 'communications', 'adaptor_action_records'];

let t: Tenant;
let root: Db;
let connection: Connection;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  t = await createTenant('Anonymisation reach');
  root = openDatabase();
  connection = await connectTemporal();
  // The receiver answers with what it got: the stored responses carry the contact too. It
  // refuses each request's first POST, so that the delivery has a workflow (the run makes the
  // first attempt itself, docs/webhooks.md "First attempt in the run") whose history is read too.
  const seen = new Set<string>();
  receiver = await startReceiver((r) => {
    const first = !seen.has(r.headers['webhook-id'] as string);
    seen.add(r.headers['webhook-id'] as string);
    return { status: first ? 503 : 200, body: r.body };
  });
});

afterAll(async () => {
  await receiver?.close();
  await connection?.close();
  await root?.$disconnect();
});

/** The tenant's rows of `table` whose JSON contains one of the strings: "table: string". */
async function rowsHolding(strings: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const table of TABLES) {
    const rows = await root.$queryRawUnsafe<Array<{ j: string }>>(`SELECT row_to_json(t)::text AS j FROM ${table} t WHERE organisation_id = $1::uuid`, t.organisationId);
    for (const s of strings) if (rows.some((r) => r.j.toLowerCase().includes(s.toLowerCase()))) found.push(`${table}: ${s}`);
  }
  return found;
}

/** Every payload's bytes as text, so a search sees what the Temporal UI shows. */
function decoded(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('utf8');
  if (Array.isArray(value)) return value.map(decoded);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decoded(v)]));
  return value;
}

test('anonymising a contact clears it from outbox events, webhook requests and attempts, communications, records and workflow histories', async () => {
  const call = caller(t.secretKey);
  const tag = `${randomInt(1e8, 1e9)}`;
  const personal = { first: `Zelda${tag}`, last: `Quokka${tag}`, email: `zq${tag}@privacy.test`, phone: `+35799${tag.slice(0, 6)}`, code: `ZQ-${tag}` };
  const strings = [personal.first, personal.last, personal.email, personal.phone.slice(3), personal.code];

  const webhook = (await call('POST', '/webhooks', { name: 'Echo', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const auto = await automation(call, 'REGISTER_CONTACT', [
    postWebhook(webhook),
    { adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [
      param('subject', 'Hello {{contact.first_name}} {{contact.last_name}}'),
      param('content', 'Dear {{contact.name}} ({{contact.code}}), we call {{contact.phone}} and write to {{contact.email}}.'),
    ] },
    { adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'UPDATE_CONTENT', adaptor_action_parameters: [param('custom_field_key', 'welcomed'), param('custom_field_value', 'yes')] },
  ]);
  const contact = (await call('POST', '/contacts', {
    contact_type: 'PERSON', code: personal.code, first_name: personal.first, last_name: personal.last,
    email_address: personal.email, phones: [{ number: personal.phone }],
  })).id;

  await eventually(async () => {
    const page = await call('GET', `/communications?contact_id=${contact}`);
    return page.content.length === 1 && page.content[0].life_cycle_state === 'SENT';
  }, 30_000, 'the communication SENT');
  await eventually(async () => {
    const page = await call('GET', `/webhook_requests?automation_id=${auto}`);
    return page.content.length === 1 && page.content[0].state === 'SUCCESS';
  }, 30_000, 'the webhook request SUCCESS');
  const client = new Client({ connection });
  const runs: string[] = [];
  for await (const w of client.workflow.list({ query: `EntityId = "${contact}"` })) runs.push(w.workflowId);
  expect(runs.map((id) => id.split(':')[0]).sort()).toEqual(['automation-run', 'communication', 'webhook-request']);
  for (const id of runs) await client.workflow.getHandle(id).result();

  // The histories (inputs, activity arguments and results, search attributes) hold none of them.
  for (const id of runs) {
    const history = JSON.stringify(decoded(await client.workflow.getHandle(id).fetchHistory())).toLowerCase();
    expect(history).toContain(contact);
    for (const s of strings) expect([id, history.includes(s.toLowerCase()) ? s : null]).toEqual([id, null]);
  }

  // The search finds what is there: before, the run's writes hold the contact.
  expect(await rowsHolding(strings)).toEqual(expect.arrayContaining([
    `communications: ${personal.email}`, `communications: ${personal.first}`, `webhook_requests: ${personal.email}`, `webhook_attempts: ${personal.email}`,
  ]));

  expect((await call('POST', `/contacts/${contact}/anonymize`)).id).toBe(contact);
  expect(await rowsHolding(strings)).toEqual([]);
  // The event with runs keeps a marker its runs' filters can still read; one without runs keeps no snapshot.
  const events = async () => root.outboxEvent.findMany({ where: { organisationId: t.organisationId, entityId: contact }, orderBy: { createdAt: 'asc' } });
  await eventually(async () => (await events()).every((e) => e.dispatchedAt), 10_000, 'the events dispatched');
  const [registered, anonymised] = await events();
  expect(registered.payload).toMatchObject({ contact: { id: contact, contact_type: 'PERSON', is_anonymized: true } });
  expect([anonymised.type, anonymised.payload]).toEqual(['ANONYMIZE_CONTACT', { contact_id: contact }]);

  // What stays readable: the ids, and that it happened.
  const sent = (await call('GET', `/communications?contact_id=${contact}`)).content[0];
  expect(sent).toMatchObject({ life_cycle_state: 'SENT', recipient: null, subject: '[anonymized]', content: '[anonymized]' });
  const request = (await call('GET', `/webhook_requests?automation_id=${auto}`)).content[0];
  expect(request).toMatchObject({ state: 'SUCCESS', entity: { type: 'CONTACTS', id: contact } });
});

test('a record about the contact\'s purchase is cleared after retention deleted its event', async () => {
  const call = caller(t.secretKey);
  const tag = `${randomInt(1e8, 1e9)}`;
  const personal = { first: `Ysolde${tag}`, last: `Numbat${tag}`, code: `YN-${tag}` };
  const webhook = (await call('POST', '/webhooks', { name: 'Echo purchases', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const auto = await automation(call, 'PURCHASE_POSTED', [postWebhook(webhook)], 'PURCHASES');
  const contact = (await call('POST', '/contacts', {
    contact_type: 'PERSON', code: personal.code, first_name: personal.first, last_name: personal.last,
    accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }],
  })).id;
  const purchase = (await call('POST', '/purchases', {
    contact_id: contact, reference_number: `R-${tag}`, products: [{ product_sku: 'SKU-1', net_amount: 10, tax_amount: 0, total_amount: 10 }],
  })).id;
  await eventually(async () => (await call('GET', `/webhook_requests?automation_id=${auto}`)).content[0]?.state === 'SUCCESS', 30_000, 'the webhook request SUCCESS');
  // The record's search reference was built from the event's contact snapshot.
  expect(await rowsHolding([personal.code])).toContain(`adaptor_action_records: ${personal.code}`);

  // Retention deletes dispatched events (docs/operations.md "Retention"): the payload's contact_id goes with them.
  await root.$executeRawUnsafe('DELETE FROM outbox_events WHERE organisation_id = $1::uuid AND entity_id = $2::uuid', t.organisationId, purchase);
  expect((await call('POST', `/contacts/${contact}/anonymize`)).id).toBe(contact);
  expect(await rowsHolding([personal.first, personal.last, personal.code])).toEqual([]);
});
