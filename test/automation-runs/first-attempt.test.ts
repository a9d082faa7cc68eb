// An automation run makes its webhook's first attempt itself (docs/webhooks.md "First attempt in
// the run"): a delivery workflow exists only when a retry is needed, and the request log is the
// one a delivery workflow writes: one attempt row per attempt, the same webhook-id on each.
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, json, postWebhook, startReceiver } from './helpers';
import { connectTemporal } from '../support/temporal';

let connection: Connection;
let temporal: Client;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let call: ReturnType<typeof caller>;
let webhookId: string;

beforeAll(async () => {
  connection = await connectTemporal();
  temporal = new Client({ connection });
  const seen = new Set<string>();
  receiver = await startReceiver((r) => {
    const request = json(r)?.id as string;
    const first = !seen.has(request);
    seen.add(request);
    // A contact named FailFirst gets 500 at its first POST, then 200.
    return first && json(r)?.data?.contact?.first_name === 'FailFirst' ? { status: 500, body: 'not yet' } : { status: 200, body: 'ok' };
  });
  call = caller((await createTenant('first attempt in the run')).secretKey);
  webhookId = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
});

afterAll(async () => {
  await receiver?.close();
  await connection?.close();
});

// Each test's automation stays ACTIVE: a later contact runs the earlier tests' automations too.
const hooksFor = (contactId: string, automationId: string) =>
  receiver.received.filter((r) => json(r)?.data?.entity?.id === contactId && json(r)?.data?.automation?.id === automationId);
const settled = (id: string) =>
  eventually(async () => {
    const r = await call('GET', `/webhook_requests/${id}`);
    return r.state !== 'PENDING' && r;
  }, 20_000, `request ${id} settled`);
/** The delivery workflow of a request, or null when none was ever started. */
async function delivery(requestId: string) {
  try {
    return await temporal.workflow.getHandle(`webhook-request:${requestId}`).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

test('a first attempt that succeeds: SUCCESS with one attempt logged, and no delivery workflow at all', async () => {
  const auto = await automation(call, 'REGISTER_CONTACT', [postWebhook(webhookId)]);
  const contact = (await call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Once', last_name: 'Only' })).id;
  const [hook] = await eventually(async () => hooksFor(contact, auto).length > 0 && hooksFor(contact, auto), 20_000, 'the webhook');
  const requestId = json(hook).id;
  expect(hook.headers['webhook-id']).toBe(requestId);
  const request = await settled(requestId);
  expect(request).toMatchObject({ state: 'SUCCESS', retries: 0, response_status: 200, automation: { id: auto }, entity: { type: 'CONTACTS', id: contact } });
  expect(request.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200, error: null })]);
  // The run finished; the intent it held was settled, not performed: nothing else ever runs.
  await temporal.workflow.getHandle(`automation-run:${auto}:${json(hook).data.event.id}`).result();
  await new Promise((r) => setTimeout(r, 1500)); // a dispatcher sweep (OUTBOX_POLL_MS) at least
  expect(await delivery(requestId)).toBeNull();
  expect(hooksFor(contact, auto)).toHaveLength(1);
});

test('a first attempt that fails: the delivery workflow retries with the same webhook-id, and the log has both attempts', async () => {
  const auto = await automation(call, 'REGISTER_CONTACT', [postWebhook(webhookId)]);
  const contact = (await call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'FailFirst', last_name: 'Tried' })).id;
  const hooks = await eventually(async () => hooksFor(contact, auto).length >= 2 && hooksFor(contact, auto), 20_000, 'the retry');
  const requestId = json(hooks[0]).id;
  expect(hooks.map((h) => h.headers['webhook-id'])).toEqual([requestId, requestId]);
  expect(hooks.map((h) => h.body)).toEqual([hooks[0].body, hooks[0].body]);
  const request = await settled(requestId);
  expect(request).toMatchObject({ state: 'SUCCESS', retries: 1, response_status: 200, automation: { id: auto } });
  expect(request.attempts.map((a: any) => [a.attempt, a.status_code])).toEqual([[1, 500], [2, 200]]);
  expect(await temporal.workflow.getHandle(`webhook-request:${requestId}`).result()).toBe('SUCCESS');
  const run = await delivery(requestId);
  expect(run).toMatchObject({ type: 'webhookDeliveryWorkflow', status: { name: 'COMPLETED' } });
  // Found like any delivery of a run: by its automation and entity.
  expect(run!.searchAttributes).toMatchObject({ AutomationId: [auto], EntityId: [contact] });
});
