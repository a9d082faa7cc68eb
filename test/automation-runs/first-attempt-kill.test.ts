// A kill between a run's first webhook attempt and its log (docs/webhooks.md "First attempt in
// the run"): the request is still delivered, and every POST of it carries the same webhook-id.
// 1. The service dies while the receiver holds the first POST; after the restart the run's
//    activity is retried and attempts again (the receiver de-duplicates by webhook-id).
// 2. The same, but the run never comes back (terminated by an operator while no worker ran): the
//    delivery intent the run held is performed once its lease ends, and its workflow delivers.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, json, postWebhook, startReceiver } from './helpers';
import { connectTemporal } from '../support/temporal';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-first-attempt-kill-'));
let service: ServiceProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let db: Db | undefined;
// On PostgreSQL a database of its own: a dispatcher of another service would take its intents.
const own = ownDatabase('first_attempt_kill');

beforeAll(() => own.create());

afterAll(async () => {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

async function restart(extra: Record<string, string> = {}) {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  service = await startServiceProcess(serviceEnv(dataDir, { OUTBOX_DISPATCHER: 'true', ...own.env, ...extra }));
  db = own.connect(dataDir);
}

test('killed between the first POST and its log: delivered after the restart, every POST with the same webhook-id', async () => {
  // The first POST of a contact whose last name is Killed kills the service before it is answered.
  const killed = new Set<string>();
  receiver = await startReceiver((r) => {
    const contact = json(r)?.data?.entity?.id as string;
    if (json(r)?.data?.contact?.last_name !== 'Killed' || killed.has(contact)) return { status: 200, body: 'ok' };
    killed.add(contact);
    service!.child.kill('SIGKILL');
    return 'hang';
  });
  await restart();
  const { secretKey: key } = await createTenant('first attempt kill', dataDir, own.url);
  const call = () => caller(key, { baseUrl: service!.url, ca: serviceCa(dataDir) });
  const webhook = (await call()('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const auto = await automation(call(), 'REGISTER_CONTACT', [postWebhook(webhook)]);
  const hooksFor = (contact: string) => receiver.received.filter((r) => json(r)?.data?.entity?.id === contact);
  const delivered = async (contact: string) => {
    const hooks = await eventually(async () => hooksFor(contact).length >= 2 && hooksFor(contact), 90_000, 'the POST again');
    const requestId = json(hooks[0]).id;
    const request = await eventually(async () => {
      const row = await db!.webhookRequest.findUniqueOrThrow({ where: { id: requestId }, include: { attempts: true } });
      return row.state !== 'PENDING' && row;
    }, 20_000, 'the request settled');
    await new Promise((r) => setTimeout(r, 1500));
    return { hooks: hooksFor(contact), requestId, request };
  };

  // 1. The run's step (a local activity) runs again after the restart, in its workflow task's retry, and attempts again.
  const one = (await call()('POST', '/contacts', { contact_type: 'PERSON', first_name: 'One', last_name: 'Killed' })).id;
  await eventually(async () => service!.child.exitCode !== null || service!.child.signalCode !== null, 20_000, 'the kill');
  await restart();
  const first = await delivered(one);
  expect(first.hooks.map((h) => h.headers['webhook-id'])).toEqual([first.requestId, first.requestId]);
  expect(first.request).toMatchObject({ state: 'SUCCESS', retries: 0, automationId: auto });
  // One logged attempt: the one that reached its log.
  expect(first.request.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 200]]);

  // 2. Killed the same way; restarted without a worker, the run is terminated (it will never
  //    attempt again); restarted with one, the held delivery's lease has ended and its workflow delivers.
  const two = (await call()('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Two', last_name: 'Killed' })).id;
  await eventually(async () => service!.child.exitCode !== null || service!.child.signalCode !== null, 20_000, 'the kill');
  await restart({ RUN_WORKER: 'false' });
  const event = await db!.outboxEvent.findFirstOrThrow({ where: { type: 'REGISTER_CONTACT', entityId: two } });
  const connection = await connectTemporal(service!.temporalAddress, dataDir);
  try {
    await new Client({ connection }).workflow.getHandle(`automation-run:${auto}:${event.id}`).terminate('never comes back');
  } finally {
    await connection.close();
  }
  const intent = await db!.workflowIntent.findFirstOrThrow({ where: { workflowType: 'webhookDeliveryWorkflow', searchAttributes: { path: ['entityId'], equals: two } } });
  expect(intent.dispatchedAt).toBeNull();
  expect(intent.claimedUntil!.getTime()).toBeGreaterThan(Date.now()); // still held by the dead run
  await restart();
  const second = await delivered(two);
  expect(second.hooks.map((h) => h.headers['webhook-id'])).toEqual([second.requestId, second.requestId]);
  expect(second.request).toMatchObject({ state: 'SUCCESS', retries: 0 });
  expect(second.request.attempts.map((a) => [a.attempt, a.statusCode])).toEqual([[1, 200]]);
  expect(intent.workflowId).toBe(`webhook-request:${second.requestId}`);
  expect(await db!.workflowIntent.findUniqueOrThrow({ where: { id: intent.id } })).toMatchObject({ dispatchedAt: expect.any(Date) });
}, 300_000);
