// The run history of real runs (docs/automations.md "Run history"): contacts registered → their
// events → automation runs in Temporal → GET /automations/{id}/runs shows each run as it goes:
// skipped, waiting for an approval, running on after the decision, completed, failed.
import { api } from '../support/api';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, param, postWebhook, startReceiver } from './helpers';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let key: string;
let call: ReturnType<typeof caller>;
let webhookId: string;

beforeAll(async () => {
  receiver = await startReceiver();
  key = (await createTenant('run history')).secretKey;
  call = caller(key);
  webhookId = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
});

afterAll(async () => {
  await receiver?.close();
});

const onlyFor = (first: string) => [{ filters: [{ attribute: 'FIRST_NAME', operator: 'EQUAL', value: first }] }];
const person = (first: string) => ({ contact_type: 'PERSON', first_name: first, last_name: 'History' });
type Run = { id: string; entity: { id: string }; state: string; reason: string | null; actions: Array<{ adaptor_action: string; status: string; reason: string | null; record_id: string }> };
const runsOf = async (automationId: string): Promise<Run[]> => (await call('GET', `/automations/${automationId}/runs`)).content;
const runFor = (automationId: string, contactId: string, state: string) =>
  eventually(async () => (await runsOf(automationId)).find((r) => r.entity.id === contactId && r.state === state), 20_000, `${state} run`);

test('each run as it goes: skipped, waiting for approval, completed after the decision; newest first', async () => {
  const auto = await automation(call, 'REGISTER_CONTACT', [
    postWebhook(webhookId, onlyFor('Alice')),
    { adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [param('timeout_seconds', 600)], action_filters: onlyFor('Alice') },
    postWebhook(webhookId),
  ]);
  const bob = (await call('POST', '/contacts', person('Bob'))).id;
  const skippedAll = await runFor(auto, bob, 'COMPLETED');
  // Bob's filters failed for the first two actions; the last one has none.
  expect(skippedAll.actions.map((a) => [a.adaptor_action, a.status])).toEqual([['POST_WEBHOOK', 'SKIPPED'], ['REQUEST_APPROVAL', 'SKIPPED'], ['POST_WEBHOOK', 'COMPLETED']]);
  expect(skippedAll.actions[0].reason).toMatch(/FIRST_NAME/);

  const alice = (await call('POST', '/contacts', person('Alice'))).id;
  const waiting = await runFor(auto, alice, 'WAITING_FOR_APPROVAL');
  expect(waiting.actions.map((a) => [a.adaptor_action, a.status])).toEqual([['POST_WEBHOOK', 'COMPLETED'], ['REQUEST_APPROVAL', 'PENDING']]);
  expect((await runsOf(auto)).map((r) => r.entity.id)).toEqual([alice, bob]);

  await call('POST', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records/${waiting.actions[1].record_id}`, { key: 'status', value: 'APPROVED' });
  const done = await runFor(auto, alice, 'COMPLETED');
  expect(done.actions.map((a) => a.status)).toEqual(['COMPLETED', 'APPROVED', 'COMPLETED']);
});

test('a failed action stops the run: FAILED with its reason; every action skipped is SKIPPED', async () => {
  const gone = (await call('POST', '/webhooks', { name: 'Soon gone', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const auto = await automation(call, 'REGISTER_CONTACT', [postWebhook(gone, onlyFor('Carol')), postWebhook(webhookId, onlyFor('Carol'))]);
  // The sequence names a webhook that is deleted before the run: the action fails.
  await call('DELETE', `/webhooks/${gone}`);
  const carol = (await call('POST', '/contacts', person('Carol'))).id;
  const failed = await runFor(auto, carol, 'FAILED');
  expect(failed.reason).toEqual(expect.any(String));
  expect(failed.actions.map((a) => a.status)).toEqual(['FAILED']);

  const dave = (await call('POST', '/contacts', person('Dave'))).id;
  const skipped = await runFor(auto, dave, 'SKIPPED');
  expect(skipped.actions.map((a) => a.status)).toEqual(['SKIPPED', 'SKIPPED']);
  expect((await api('GET', `/automations/${auto}/runs?size=1`, { key })).body.paging.total).toBe(2);
});
