// One trace from a request to its webhook (docs/operations.md "Traces"): a service exporting
// OTLP/HTTP (JSON) to a real listener here; a POST /contacts sent with a traceparent of the
// test's own; its event's automation run posts a webhook to a receiver. The spans received link
// the request, the dispatch, the workflow, its activity and the webhook's POST into one trace,
// the receiver gets that trace's traceparent, and the request's log line carries the trace id.
// worker-traces.test.ts: the same trace across an API process and a standalone worker.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { requestToWebhookTrace, startCollector, type OtlpCollector } from '../support/telemetry';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, postWebhook, startReceiver } from '../automation-runs/helpers';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-traces-'));
const own = ownDatabase('traces');
let service: ServiceProcess | undefined;
let collector: OtlpCollector | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
  await collector?.close();
  await own.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('one trace links the request, the dispatch, the workflow, its activity and the webhook delivery', async () => {
  await own.create();
  const otlp = (collector = await startCollector());
  receiver = await startReceiver();
  service = await startServiceProcess(serviceEnv(dataDir, { ...own.env, OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, LOG_LEVEL: 'info' }));
  const { secretKey } = await createTenant('traces', dataDir, own.url);
  const options = { baseUrl: service.url, ca: serviceCa(dataDir) };
  const call = caller(secretKey, options);
  const webhook = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  await automation(call, 'REGISTER_CONTACT', [postWebhook(webhook)]);

  const traceId = randomBytes(16).toString('hex');
  const callerSpan = randomBytes(8).toString('hex');
  const created = await api('POST', '/contacts', { ...options, key: secretKey, body: { contact_type: 'PERSON', first_name: 'Tia', last_name: 'Traced' }, headers: { traceparent: `00-${traceId}-${callerSpan}-01` } });
  expect(created.status).toBe(200);
  const delivered = await eventually(async () => receiver!.received.find((r) => JSON.parse(r.body).data?.entity?.id === created.body.id), 30_000, 'the webhook');

  // Each span's parent is the one before it: the request continues the caller's span.
  const byName = await requestToWebhookTrace(otlp, traceId, callerSpan);
  // One process made them all.
  expect(new Set(Object.values(byName).map((s) => s.instance))).toEqual(new Set([`api-${service.child.pid}`]));
  // The receiver's traceparent is the webhook POST's span.
  expect(delivered.headers.traceparent).toBe(`00-${traceId}-${byName.POST.spanId}-01`);
  expect([...otlp.contentTypes]).toEqual(['application/json']);
  // The request's log line carries the trace id.
  const requestLine = service.output().split('\n').find((l) => l.includes('"msg":"request"') && l.includes('"method":"POST"') && l.includes('/contacts"') && l.includes(traceId));
  expect(requestLine).toBeDefined();
}, 180_000);
