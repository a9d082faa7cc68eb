// Business events run automations end to end (docs/automations.md "Runs"): a committed contact
// write → its outbox event → the dispatcher → one automation-run workflow per ACTIVE automation
// → the actions, each leaving its adaptor action record; webhooks arrive signed at a real HTTP
// receiver; approvals wait for a decision through the records API.
import { Client, Connection } from '@temporalio/client';
import { api } from '../support/api';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, json, param, postWebhook, signatureValid, startReceiver } from './helpers';
import { connectTemporal } from '../support/temporal';

let connection: Connection;
let temporal: Client;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let key: string;
let call: ReturnType<typeof caller>;
let webhookId: string;
let secret: string;

beforeAll(async () => {
  connection = await connectTemporal();
  temporal = new Client({ connection });
  receiver = await startReceiver();
  key = (await createTenant('automation runs')).secretKey;
  call = caller(key);
  webhookId = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  secret = (await call('GET', `/webhooks/${webhookId}`)).content[0].secret_key;
});

afterAll(async () => {
  await receiver?.close();
  await connection?.close();
});

const person = (first: string, extra: object = {}) => ({ contact_type: 'PERSON', first_name: first, last_name: 'Runner', ...extra });
const hooksFor = (contactId: string) => receiver.received.filter((r) => json(r)?.data?.entity?.id === contactId);
const records = async (adaptor: string, action: string, automationId: string) =>
  (await call('GET', `/adaptors/${adaptor}/actions/${action}/records?automation_id=${automationId}&size=100`)).content as any[];
const runsOf = async (query: string) => {
  const out = [];
  for await (const w of temporal.workflow.list({ query })) out.push(w);
  return out;
};

test('a registration runs its automation: the webhook arrives signed, with the contact as it was; a filter that fails skips the action', async () => {
  const auto = await automation(call, 'REGISTER_CONTACT', [postWebhook(webhookId, [{ filters: [{ attribute: 'FIRST_NAME', operator: 'EQUAL', value: 'Alice' }] }])]);
  const alice = (await call('POST', '/contacts', person('Alice', { code: `ALICE-${auto.slice(-6)}`, email_address: 'alice@runs.test' }))).id;
  const bob = (await call('POST', '/contacts', person('Bob'))).id;
  // Alice changes right away: the automation still sees her as registered.
  await call('PUT', `/contacts/${alice}`, { first_name: 'Alicia' });

  const [hook] = await eventually(async () => hooksFor(alice).length > 0 && hooksFor(alice), 20_000, 'the webhook');
  expect(hook.method).toBe('POST');
  expect(signatureValid(hook, secret)).toBe(true);
  expect(hook.headers['webhook-id']).toBe(json(hook).id);
  expect(json(hook)).toMatchObject({
    type: 'REGISTER_CONTACT',
    data: {
      entity: { type: 'CONTACTS', id: alice },
      automation: { id: auto },
      contact_id: alice,
      contact: { id: alice, first_name: 'Alice', email_address: 'alice@runs.test' },
    },
  });
  expect(typeof json(hook).created_on).toBe('number');
  expect(json(hook).call_id).toBeUndefined();

  // Bob's run skipped the action and wrote down why.
  const recs = await eventually(async () => {
    const rs = await records('WEBHOOKS', 'POST_WEBHOOK', auto);
    return rs.length === 2 && rs;
  }, 20_000, 'two records');
  const byEntity = new Map(recs.map((r) => [r.entity.id, r]));
  expect(byEntity.get(alice)).toMatchObject({ status: 'COMPLETED', automation: { id: auto } });
  expect(byEntity.get(bob)).toMatchObject({ status: 'SKIPPED' });
  expect(hooksFor(bob)).toEqual([]);
  const requestId = byEntity.get(alice).record_attributes.find((a: any) => a.key === 'webhook_request_id').value;
  expect(requestId).toBe(json(hook).id);

  // The request log names the automation and the entity.
  const logged = await eventually(async () => {
    const page = await call('GET', `/webhook_requests?automation_id=${auto}`);
    return page.content.length === 1 && page.content[0].state === 'SUCCESS' && page.content[0];
  }, 20_000, 'the request SUCCESS');
  expect(logged).toMatchObject({ id: requestId, retries: 0, webhook: { id: webhookId }, automation: { id: auto }, entity: { type: 'CONTACTS' } });

  // Each run is a workflow an operator finds by automation, entity and event.
  const runs = await eventually(async () => {
    const rs = await runsOf(`WorkflowType = "automationRunWorkflow" AND AutomationId = "${auto}"`);
    return rs.length === 2 && rs;
  }, 10_000, 'two runs listed');
  expect(runs.map((r) => r.workflowId).sort()).toEqual([expect.stringMatching(`^automation-run:${auto}:`), expect.stringMatching(`^automation-run:${auto}:`)]);
  expect((await runsOf(`AutomationId = "${auto}" AND EntityId = "${alice}" AND EventType = "REGISTER_CONTACT"`)).length).toBe(1);
  // One workflow per run: Bob's action was skipped, and Alice's webhook succeeded at its first
  // attempt, made by the run itself (a delivery workflow only for retries: first-attempt.test.ts).
  expect((await runsOf(`EntityType = "CONTACTS" AND EntityId = "${bob}"`)).map((r) => r.workflowId)).toEqual([expect.stringContaining(auto)]);
  expect((await runsOf(`EntityId = "${alice}"`)).map((r) => r.type)).toEqual(['automationRunWorkflow']);
});

test('an INACTIVE automation runs nothing; the bulk update\'s call id reaches the webhook requests it causes', async () => {
  const inactive = (await call('POST', '/automations', { name: 'Sleeping', entity: 'CONTACTS', event: 'UPDATE_CONTACT' })).id;
  await call('POST', `/automations/${inactive}/actions`, { content: [{ order: 1, ...postWebhook(webhookId) }] });
  const auto = await automation(call, 'UPDATE_CONTACT', [postWebhook(webhookId)]);
  const carol = (await call('POST', '/contacts', person('Carol', { code: `CAROL-${auto.slice(-6)}` }))).id;
  const { id: callId } = await call('PUT', '/contacts', { contacts: [{ contact: { id: carol }, custom_fields: [{ key: 'tier', value: 'gold' }] }] });

  const hook = await eventually(async () => receiver.received.find((r) => json(r)?.type === 'UPDATE_CONTACT' && json(r).data.entity.id === carol), 20_000, 'the UPDATE_CONTACT webhook');
  expect(json(hook).call_id).toBe(callId);
  expect(json(hook).data).toMatchObject({ automation: { id: auto }, call_id: callId, fields: ['custom_fields'] });
  const page = await eventually(async () => {
    const p = await call('GET', `/webhook_requests?call_id=${callId}`);
    return p.content.length === 1 && p;
  }, 10_000, 'the request by call id');
  expect(page.content[0]).toMatchObject({ call_id: callId, automation: { id: auto } });
  expect(await runsOf(`AutomationId = "${inactive}"`)).toEqual([]);
});

test('an approval waits for its decision: APPROVED continues, REJECTED stops, no decision before the timeout rejects', async () => {
  const approvalThenHook = (timeout: number) => [
    { adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [param('timeout_seconds', timeout)] },
    postWebhook(webhookId),
  ];
  const auto = await automation(call, 'REGISTER_CONTACT', approvalThenHook(600));
  const pendingFor = async (contactId: string) =>
    eventually(async () => (await records('APPROVAL_REQUESTS', 'REQUEST_APPROVAL', auto)).find((r) => r.entity.id === contactId && r.status === 'PENDING'), 20_000, 'a PENDING approval');
  const dan = (await call('POST', '/contacts', person('Dan'))).id;
  const eve = (await call('POST', '/contacts', person('Eve'))).id;
  const danRecord = await pendingFor(dan);
  const eveRecord = await pendingFor(eve);
  expect(hooksFor(dan)).toEqual([]);

  const decide = (recordId: string, value: string) => api('POST', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records/${recordId}`, { key, body: { key: 'status', value } });
  expect((await decide(danRecord.id, 'APPROVED')).status).toBe(200);
  expect((await decide(eveRecord.id, 'REJECTED')).status).toBe(200);
  // Decided once: a second decision is refused.
  expect((await decide(danRecord.id, 'REJECTED')).status).toBe(409);

  await eventually(async () => hooksFor(dan).length === 1, 20_000, "Dan's webhook after approval");
  const [eveRun] = await runsOf(`AutomationId = "${auto}" AND EntityId = "${eve}"`);
  expect(await temporal.workflow.getHandle(eveRun.workflowId).result()).toMatchObject({ status: 'STOPPED' });
  expect(hooksFor(eve)).toEqual([]);

  const quick = await automation(call, 'REGISTER_CONTACT', approvalThenHook(2));
  const fay = (await call('POST', '/contacts', person('Fay'))).id;
  const rejected = await eventually(async () => (await records('APPROVAL_REQUESTS', 'REQUEST_APPROVAL', quick)).find((r) => r.entity.id === fay && r.status === 'REJECTED'), 20_000, 'the timeout');
  expect(rejected.record_attributes).toEqual(expect.arrayContaining([
    expect.objectContaining({ key: 'status', value: 'REJECTED' }),
    expect.objectContaining({ key: 'reason', value: expect.stringContaining('TIMEOUT') }),
  ]));
  expect(hooksFor(fay).filter((h) => json(h).data.automation.id === quick)).toEqual([]);
});

test('communications, content updates and assignments run through their adaptors and record what they did', async () => {
  const department = (await call('POST', '/departments', { name: 'Fulfilment', user_ids: [] })).id;
  const auto = await automation(call, 'REGISTER_CONTACT', [
    { adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [param('subject', 'Welcome'), param('content', 'Hello {{contact.first_name}}')] },
    { adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'UPDATE_CONTENT', adaptor_action_parameters: [param('custom_field_key', 'welcomed'), param('custom_field_value', 'yes')] },
    { adaptor: 'ORDER_PROVISION', adaptor_action: 'ASSIGN_SPECIFIC_DEPARTMENT', adaptor_action_parameters: [param('department_id', department)] },
  ]);
  const gus = (await call('POST', '/contacts', person('Gus', { email_address: 'gus@runs.test' }))).id;

  const sent = await eventually(async () => {
    const page = await call('GET', `/communications?contact_id=${gus}`);
    return page.content.length === 1 && page.content[0].life_cycle_state === 'SENT' && page.content[0];
  }, 20_000, 'the communication SENT');
  expect(sent).toMatchObject({ name: expect.stringContaining('On REGISTER_CONTACT') });
  const assigned = await eventually(async () => (await records('ORDER_PROVISION', 'ASSIGN_SPECIFIC_DEPARTMENT', auto)).find((r) => r.entity.id === gus), 20_000, 'the assignment');
  expect(assigned.status).toBe('COMPLETED');
  expect(assigned.record_attributes).toEqual(expect.arrayContaining([
    expect.objectContaining({ key: 'department_id', value: department }),
    expect.objectContaining({ key: 'department_name', value: 'Fulfilment' }),
  ]));
  const contact = await call('GET', `/contacts/${gus}`);
  expect(contact.custom_fields).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'welcomed', value: 'yes' })]));
});
