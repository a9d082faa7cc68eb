// Forged workflow starts (docs/security.md "Workflows and personal data"): anyone who reaches the
// Temporal frontend can start the service's workflows with any input. Activities load what an
// input names within the organisation it names and refuse (non-retryable NOT_FOUND) what is not
// that organisation's, so a forged start can neither act on another organisation's records nor
// bring data of its own (an event payload, a contact snapshot) into a run.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { newId } from '../../src/domain/ids';
import { automation, caller, param, postWebhook, startReceiver } from '../automation-runs/helpers';
import { openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';
import { connectTemporal, runOutcome } from '../support/temporal';

let a: Tenant;
let b: Tenant;
let root: Db;
let connection: Connection;
let client: Client;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const started: WorkflowHandle[] = [];

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Forged starts A'), createTenant('Forged starts B')]);
  root = openDatabase();
  connection = await connectTemporal();
  client = new Client({ connection });
  receiver = await startReceiver();
});

afterAll(async () => {
  // A start the unfixed code kept retrying must not outlive the file.
  for (const h of started) await h.terminate('test over').catch(() => undefined);
  await receiver?.close();
  await connection?.close();
  await root?.$disconnect();
});

async function start(type: string, input: object): Promise<WorkflowHandle> {
  const handle = await client.workflow.start(type, { taskQueue: 'backoffice', workflowId: `forged:${type}:${newId()}`, args: [input] });
  started.push(handle);
  return handle;
}

test('an automation run acts only on an event of the organisation it names, loaded from the database', async () => {
  const callA = caller(a.secretKey);
  const callB = caller(b.secretKey);
  const hookB = (await callB('POST', '/webhooks', { name: 'B', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const autoB = await automation(callB, 'UPDATE_CONTACT', [postWebhook(hookB)]);
  const autoA = await automation(callA, 'UPDATE_CONTACT', [{ adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'UPDATE_CONTENT', adaptor_action_parameters: [param('custom_field_key', 'forged'), param('custom_field_value', 'yes')] }]);
  const contactB = (await callB('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Real', last_name: 'Person' })).id;
  const eventB = (await root.outboxEvent.findFirstOrThrow({ where: { organisationId: b.organisationId, entityId: contactB } })).id;

  // The input shape of runs started before ids-only inputs, with an event that never happened:
  // it used to send B's webhook with whatever the forger wrote into the payload.
  const fabricated = {
    organisationId: b.organisationId, automationId: autoB,
    event: { id: newId(), type: 'UPDATE_CONTACT', createdOn: 1, payload: { contact_id: contactB, contact: { id: contactB, first_name: 'Forged' } } },
  };
  expect(await runOutcome(await start('automationRunWorkflow', fabricated))).toBe('REFUSED NOT_FOUND true');
  // Organisation A with B's real event: not A's, refused.
  expect(await runOutcome(await start('automationRunWorkflow', { organisationId: a.organisationId, automationId: autoA, eventId: eventB }))).toBe('REFUSED NOT_FOUND true');
  // Not an id at all: refused, never retried.
  expect(await runOutcome(await start('automationRunWorkflow', { organisationId: a.organisationId, automationId: autoA, eventId: '../x' }))).toBe('REFUSED INVALID_ID true');

  await new Promise((r) => setTimeout(r, 1000));
  expect(receiver.received.filter((r) => r.body.includes('Forged'))).toEqual([]);
  expect(await root.adaptorActionRecord.count({ where: { automationId: { in: [autoA, autoB] } } })).toBe(0);
});

test('sends and deliveries refuse a communication or webhook request of another organisation', async () => {
  const callB = caller(b.secretKey);
  const contactB = (await callB('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Other', last_name: 'Org' })).id;
  const communicationB = (await callB('POST', '/communications', { name: 'Note', contact_id: contactB, channel: 'INAPP', content: 'hello' })).id;
  const hookB = (await callB('POST', '/webhooks', { name: 'B test', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const requestB = (await callB('POST', `/webhooks/${hookB}/test`)).id;

  expect(await runOutcome(await start('communicationSendWorkflow', { organisationId: a.organisationId, communicationId: communicationB }))).toBe('REFUSED NOT_FOUND true');
  expect(await runOutcome(await start('webhookDeliveryWorkflow', { organisationId: a.organisationId, requestId: requestB, scheduleMs: [0] }))).toBe('REFUSED NOT_FOUND true');
});

test("a report run refuses a run id that is not its organisation's before touching any file", async () => {
  // The file of a run in progress, whoever's: a forged start must not remove it.
  const runId = newId();
  const file = path.join(testState().dataDir, 'reports', `${runId}.csv`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'someone else\'s report\n');
  // The workflow turns the refusal into a FAILED run (of which there is none in A).
  expect(await runOutcome(await start('reportRunWorkflow', { organisationId: a.organisationId, runId }))).toBe('COMPLETED "FAILED"');
  expect(existsSync(file)).toBe(true);
});

test("a replay acts only on a simulation of the organisation it names: another's is refused and left as it is", async () => {
  const callB = caller(b.secretKey);
  const autoB = (await callB('POST', '/automations', { name: 'B replay', entity: 'CONTACTS', event: 'REGISTER_CONTACT' })).id;
  const now = Math.floor(Date.now() / 1000);
  const simB = (await api('POST', `/automations/${autoB}/simulations`, { key: b.secretKey, body: { from_date: now - 60, to_date: now } })).body.id;
  const settledB = await root.automationSimulation.findUniqueOrThrow({ where: { id: simB } }).then(async (row) => {
    for (let i = 0; i < 100 && row.state === 'RUNNING'; i++) row = await new Promise((r) => setTimeout(r, 100)).then(() => root.automationSimulation.findUniqueOrThrow({ where: { id: simB } }));
    return row;
  });
  // The workflow turns the refusal into a FAILED replay, of which there is none in A.
  expect(await runOutcome(await start('automationSimulationWorkflow', { organisationId: a.organisationId, simulationId: simB }))).toBe('COMPLETED "FAILED"');
  expect(await runOutcome(await start('automationSimulationWorkflow', { organisationId: a.organisationId, simulationId: '../x' }))).toBe('REFUSED INVALID_ID true');
  expect(await root.automationSimulation.findUniqueOrThrow({ where: { id: simB } })).toEqual(settledB);
});
