// Killing the service loses no event and repeats no effect (docs/automations.md "Dispatch"):
// an event committed while no dispatcher ran is dispatched after the restart, once; an event
// dispatched again (its marking lost) does not run an automation twice; a webhook request
// committed with its delivery's intent while no dispatcher ran is delivered after the restart,
// once; an approval waits across a SIGKILL and its decision, made after the restart, continues the run.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@temporalio/client';
import type { Db } from '../../src/db/client';
import { txSql } from '../../src/db/sql';
import { loadConfig } from '../../src/config';
import { recordIntent } from '../../src/temporal/intents';
import { webhookDelivery } from '../../src/domain/webhooks/requests';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, json, param, postWebhook, startReceiver } from './helpers';
import { connectTemporal } from '../support/temporal';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-automation-restart-'));
let service: ServiceProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let db: Db | undefined;
// On PostgreSQL a database of its own: a dispatcher of another service would take its events.
const own = ownDatabase('automation_restart');

beforeAll(() => own.create());

afterAll(async () => {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
  await own.drop();
});

async function restart(dispatcher: boolean) {
  await db?.$disconnect().catch(() => undefined);
  await service?.stop('SIGKILL');
  service = await startServiceProcess(serviceEnv(dataDir, { OUTBOX_DISPATCHER: String(dispatcher), ...own.env }));
  db = own.connect(dataDir);
}

test('events survive kills: dispatched after a restart once, never run twice; an approval waits across a kill', async () => {
  receiver = await startReceiver();
  await restart(false);
  const { secretKey: key } = await createTenant('automation restart', dataDir, own.url);
  const call = () => caller(key, { baseUrl: service!.url, ca: serviceCa(dataDir) });
  const webhook = (await call()('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const direct = await automation(call(), 'REGISTER_CONTACT', [postWebhook(webhook)]);
  const approved = await automation(call(), 'REGISTER_CONTACT', [
    { adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [param('timeout_seconds', 600)] },
    postWebhook(webhook),
  ]);

  // Committed, then the process dies before any dispatcher saw the event.
  const contact = (await call()('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Kim', last_name: 'Killed' })).id;
  const event = await db!.outboxEvent.findFirstOrThrow({ where: { type: 'REGISTER_CONTACT', entityId: contact } });
  await new Promise((r) => setTimeout(r, 1500));
  expect((await db!.outboxEvent.findUniqueOrThrow({ where: { id: event.id } })).dispatchedAt).toBeNull();
  expect(receiver.received).toEqual([]);

  await restart(true);
  const from = (automationId: string) => receiver.received.filter((r) => json(r).data.automation?.id === automationId && json(r).data.entity?.id === contact);
  await eventually(async () => from(direct).length === 1, 30_000, 'the webhook after the restart');
  const dispatched = await db!.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
  expect(dispatched.dispatchedAt).not.toBeNull();
  // Its runs load it by id, snapshot included (their inputs carry ids only): it stays with the event.
  expect(dispatched.payload).toMatchObject({ contact: { id: contact, last_name: 'Killed' } });

  // The marking is lost (as if the process died right after starting the runs): the event is
  // dispatched again, and its runs are not started twice.
  await db!.outboxEvent.update({ where: { id: event.id }, data: { dispatchedAt: null, claimedUntil: null } });
  await eventually(async () => (await db!.outboxEvent.findUniqueOrThrow({ where: { id: event.id } })).dispatchedAt !== null, 20_000, 'the second dispatch');
  const connection = await connectTemporal(service!.temporalAddress, dataDir);
  try {
    const runs = [];
    for await (const w of new Client({ connection }).workflow.list({ query: `WorkflowType = "automationRunWorkflow" AND EntityId = "${contact}"` })) runs.push(w.workflowId);
    expect(runs.sort()).toEqual([`automation-run:${approved}:${event.id}`, `automation-run:${direct}:${event.id}`].sort());
  } finally {
    await connection.close();
  }

  // The approval waits; the service is killed meanwhile; the decision after the restart continues it.
  const pending = await eventually(async () => {
    const page = await call()('GET', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records?automation_id=${approved}`);
    return page.content.find((r: any) => r.status === 'PENDING');
  }, 20_000, 'the PENDING approval');
  expect(from(approved)).toEqual([]);
  // A request committed with its delivery's intent, and the process dies before any dispatcher
  // performed it: the restart delivers it, once.
  await restart(false);
  const delivered = await db!.webhookRequest.findFirstOrThrow({ where: { automationId: direct } });
  const { id: _id, createdAt: _c, updatedAt: _u, completedAt: _d, responseStatus: _s, responseBody: _b, body: _body, ...copy } = delivered;
  const orphan = await db!.$transaction(async (tx) => {
    const row = await tx.webhookRequest.create({
      data: { ...copy, id: randomUUID(), state: 'PENDING', retries: 0, causeKey: `orphan:${contact}`, body: { type: 'ORPHAN', data: { orphan: contact } } },
    });
    await recordIntent(txSql(tx, row.organisationId), webhookDelivery(loadConfig({ WEBHOOK_RETRY_SCHEDULE: '0,1s,1s,1s' }), row.organisationId, row.id, { automationId: direct }));
    return row;
  });
  await new Promise((r) => setTimeout(r, 1500));
  expect(receiver.received.some((r) => json(r).data.orphan === contact)).toBe(false);
  await restart(true);
  await eventually(async () => receiver.received.some((r) => json(r).data.orphan === contact), 30_000, 'the orphaned request after the restart');
  await new Promise((r) => setTimeout(r, 1000));
  expect(receiver.received.filter((r) => json(r).data.orphan === contact)).toHaveLength(1);
  expect((await eventually(async () => {
    const row = await db!.webhookRequest.findUniqueOrThrow({ where: { id: orphan.id } });
    return row.state === 'SUCCESS' && row;
  }, 10_000, 'the orphaned request SUCCESS')).retries).toBe(0);
  const decided = await api('POST', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records/${pending.id}`, {
    baseUrl: service!.url, ca: serviceCa(dataDir), key, body: { key: 'status', value: 'APPROVED' },
  });
  expect(decided.status).toBe(200);
  await eventually(async () => from(approved).length === 1, 30_000, 'the webhook after approval');
  await new Promise((r) => setTimeout(r, 1500));
  expect([from(direct).length, from(approved).length]).toEqual([1, 1]);
}, 240_000);
