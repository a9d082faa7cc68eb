// Silent no-ops a new user met (issue 19, defect 7): a country filter in alpha-2 that never
// matched, placeholders sent literally from direct content, and SKIPPED records that said not why.
// Each is now either done as meant or refused with a 400 naming the value.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { simpleParser } from 'mailparser';
import type { Db } from '../../src/db/client';
import { expectError, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';
import { automation, caller, eventually, param } from './helpers';
import { connectTemporal } from '../support/temporal';

let tenant: Tenant;
let call: ReturnType<typeof caller>;
let root: Db;
let connection: Connection;
let temporal: Client;

beforeAll(async () => {
  tenant = await createTenant('New user');
  call = caller(tenant.secretKey);
  root = openDatabase();
  connection = await connectTemporal();
  temporal = new Client({ connection });
});

afterAll(async () => {
  await root?.$disconnect();
  await connection?.close();
});

const person = (first: string, extra: object = {}) => ({ contact_type: 'PERSON', first_name: first, last_name: 'Newuser', ...extra });
const setField = (key: string, filters: object[] = []) => ({
  adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'UPDATE_CONTENT',
  adaptor_action_parameters: [param('custom_field_key', key), param('custom_field_value', 'yes')], action_filters: filters,
});
const records = async (adaptor: string, action: string, automationId: string) =>
  (await call('GET', `/adaptors/${adaptor}/actions/${action}/records?automation_id=${automationId}&size=100`)).content as any[];
const recordOf = (adaptor: string, action: string, automationId: string, contactId: string, key?: string) =>
  eventually(async () => (await records(adaptor, action, automationId)).find((r) => r.entity.id === contactId && (!key || r.record_attributes.some((a: any) => a.value === key))), 20_000, `the ${action} record`);

test('a country filter takes alpha-2 or alpha-3, stores alpha-3 and matches what contacts store; an unknown code is 400 naming its value', async () => {
  const { id: auto } = await call('POST', '/automations', { name: 'Cyprus welcome', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  const actions = (filters: object[]) => api('POST', `/automations/${auto}/actions`, { key: tenant.secretKey, body: { content: [{ order: 1, ...setField('cyprus', [{ filters }]) }] } });
  const personFilter = { attribute: 'CONTACT_TYPE', operator: 'EQUAL', value: 'PERSON' };
  expectError(await actions([personFilter, { attribute: 'COUNTRY_CODE', operator: 'EQUAL', value: 'ZZ' }]), 400, 'INVALID_REQUEST', 'content.0.action_filters.0.filters.1.value');
  expectError(await actions([{ attribute: 'COUNTRY_CODE', operator: 'IN', value_list: ['CY', 'XXX'] }]), 400, 'INVALID_REQUEST', 'content.0.action_filters.0.filters.0.value_list.1');
  // A code compares whole: a substring or an order of codes means nothing.
  expectError(await actions([{ attribute: 'COUNTRY_CODE', operator: 'STARTS_WITH', value: 'CY' }]), 400, 'INVALID_REQUEST', 'content.0.action_filters.0.filters.0.operator');
  // Contacts store 3-letter languages: "en" would never match either.
  expectError(await actions([{ attribute: 'LANGUAGE_CODE', operator: 'EQUAL', value: 'en' }]), 400, 'INVALID_REQUEST', 'content.0.action_filters.0.filters.0.value');

  await call('POST', `/automations/${auto}/actions`, {
    content: [
      { order: 1, ...setField('cyprus', [{ filters: [personFilter, { attribute: 'COUNTRY_CODE', operator: 'EQUAL', value: 'CY' }] }]) },
      { order: 2, ...setField('cyprus_or_greece', [{ filters: [{ attribute: 'COUNTRY_CODE', operator: 'IN', value_list: ['gr', 'cy'] }] }]) },
    ],
  });
  const stored = (await call('GET', `/automations/${auto}/actions`)).content;
  expect(stored[0].action_filters[0].filters[1]).toMatchObject({ attribute: 'COUNTRY_CODE', value: 'CYP' });
  expect(stored[1].action_filters[0].filters[0]).toMatchObject({ value_list: ['GRC', 'CYP'] });
  await call('PUT', `/automations/${auto}`, { life_cycle_state: 'ACTIVE' });

  const alpha3 = (await call('POST', '/contacts', person('Andreas', { addresses: [{ address_line_1: '1 Ledra St', country_code: 'CYP' }] }))).id;
  const alpha2 = (await call('POST', '/contacts', person('Eleni', { addresses: [{ address_line_1: '2 Ledra St', country_code: 'cy' }] }))).id;
  const greek = (await call('POST', '/contacts', person('Nikos', { addresses: [{ address_line_1: '3 Ermou St', country_code: 'GR' }] }))).id;
  expect((await call('GET', `/contacts/${alpha2}`)).addresses[0]).toMatchObject({ country_code: 'CYP', country: 'Cyprus' });

  for (const contact of [alpha3, alpha2]) {
    expect(await recordOf('AUTOMATIC_CONTENT_UPDATES', 'UPDATE_CONTENT', auto, contact, 'cyprus')).toMatchObject({ status: 'COMPLETED' });
    expect(await recordOf('AUTOMATIC_CONTENT_UPDATES', 'UPDATE_CONTENT', auto, contact, 'cyprus_or_greece')).toMatchObject({ status: 'COMPLETED' });
  }
  expect(await recordOf('AUTOMATIC_CONTENT_UPDATES', 'UPDATE_CONTENT', auto, greek, 'cyprus_or_greece')).toMatchObject({ status: 'COMPLETED' });
  const skipped = await eventually(async () => (await records('AUTOMATIC_CONTENT_UPDATES', 'UPDATE_CONTENT', auto)).find((r) => r.entity.id === greek && r.status === 'SKIPPED'), 20_000, "the Greek contact's skip");
  expect(skipped.reason).toContain('COUNTRY_CODE EQUAL');
});

test('a skipped action says why: `reason` on the record read and in the run workflow\'s result', async () => {
  const auto = await automation(call, 'REGISTER_CONTACT', [
    setField('never', [{ filters: [{ attribute: 'FIRST_NAME', operator: 'EQUAL', value: 'Nobody' }] }]),
    { adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [param('subject', 'Hi'), param('content', 'Hello')] },
  ]);
  const quiet = (await call('POST', '/contacts', person('Quiet', { email_address: 'quiet@new-user.test', email_opt_out: true }))).id;

  const filtered = await recordOf('AUTOMATIC_CONTENT_UPDATES', 'UPDATE_CONTENT', auto, quiet);
  expect(filtered).toMatchObject({ status: 'SKIPPED', reason: expect.stringContaining('FIRST_NAME EQUAL did not match') });
  const read = await call('GET', `/adaptors/AUTOMATIC_CONTENT_UPDATES/actions/UPDATE_CONTENT/records/${filtered.id}`);
  expect(read.reason).toBe(filtered.reason);
  const optedOut = await recordOf('COMMUNICATIONS', 'COMMUNICATE_CUSTOMER', auto, quiet);
  expect(optedOut).toMatchObject({ status: 'SKIPPED', reason: expect.stringContaining('CONTACT_OPTED_OUT') });

  const runs = [];
  for await (const w of temporal.workflow.list({ query: `AutomationId = "${auto}" AND EntityId = "${quiet}"` })) runs.push(w);
  const result = await temporal.workflow.getHandle(runs[0].workflowId).result();
  expect(result).toMatchObject({
    status: 'COMPLETED',
    steps: [
      { recordId: filtered.id, status: 'SKIPPED', reason: filtered.reason },
      { recordId: optedOut.id, status: 'SKIPPED', reason: optedOut.reason },
    ],
  });
  // A record that did its work has no reason.
  const done = await automation(call, 'REGISTER_CONTACT', [setField('done')]);
  const doer = (await call('POST', '/contacts', person('Doer'))).id;
  expect(await recordOf('AUTOMATIC_CONTENT_UPDATES', 'UPDATE_CONTENT', done, doer)).toMatchObject({ status: 'COMPLETED', reason: null });
});

test('direct content renders its placeholders as templates do, in automations and in POST /communications; an unknown one is 400', async () => {
  const admin = await root.user.update({ where: { organisationId_username: { organisationId: tenant.organisationId, username: tenant.admin.username } }, data: { email: 'staff@new-user.test' } });
  const { id: auto } = await call('POST', '/automations', { name: 'Welcome', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  const badSubject = await api('POST', `/automations/${auto}/actions`, {
    key: tenant.secretKey,
    body: { content: [{ order: 1, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [param('subject', 'Hi {{contact.password}}'), param('content', 'x')] }] },
  });
  expectError(badSubject, 400, 'INVALID_REQUEST', 'content.0.adaptor_action_parameters.0.parameter_from_value');
  await call('POST', `/automations/${auto}/actions`, {
    content: [
      { order: 1, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [param('subject', 'Welcome, {{contact.first_name}}!'), param('content', 'Hello {{ contact.first_name }}, your code is {{contact.code}}.')] },
      { order: 2, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_USER', adaptor_action_parameters: [param('user_id', admin.id), param('subject', 'New contact {{contact.name}}'), param('content', 'Code {{contact.code}}')] },
    ],
  });
  await call('PUT', `/automations/${auto}`, { life_cycle_state: 'ACTIVE' });
  const zoe = (await call('POST', '/contacts', person('Zoe', { code: `ZOE-${auto.slice(-6)}`, email_address: 'zoe@new-user.test' }))).id;

  // The other tests' automations also greet Zoe: this one's communication carries its name.
  const sent = await eventually(async () => (await call('GET', `/communications?contact_id=${zoe}`)).content.find((c: any) => c.name === 'Welcome'), 20_000, 'the communication');
  expect(sent).toMatchObject({ subject: 'Welcome, Zoe!', content: `Hello Zoe, your code is ZOE-${auto.slice(-6)}.` });
  const toStaff = await recordOf('COMMUNICATIONS', 'COMMUNICATE_USER', auto, zoe);
  const messageId = toStaff.record_attributes.find((a: any) => a.key === 'message_id').value.replace(/^<|>$/g, '');
  const mail = await simpleParser(readFileSync(path.join(testState().dataDir, 'outbox', `${messageId}.eml`)));
  expect(mail.subject).toBe('New contact Zoe Newuser');
  expect(mail.text?.trim()).toBe(`Code ZOE-${auto.slice(-6)}`);

  const direct = { name: 'Direct', contact_id: zoe, channel: 'INAPP', subject: 'For {{contact.first_name}}', content: 'Dear {{ contact.last_name }}' };
  const { id } = await call('POST', '/communications', direct);
  expect(await call('GET', `/communications/${id}`)).toMatchObject({ subject: 'For Zoe', content: 'Dear Newuser' });
  expectError(await api('POST', '/communications', { key: tenant.secretKey, body: { ...direct, content: 'Dear {{first_name}}' } }), 400, 'INVALID_REQUEST', 'content');
  expectError(await api('POST', '/communications', { key: tenant.secretKey, body: { ...direct, subject: '{{contact.password}}' } }), 400, 'INVALID_REQUEST', 'subject');
});
