// One trace from a request to its webhook (docs/operations.md "Traces"): a service exporting
// OTLP/HTTP (JSON) to a real listener here; a POST /contacts sent with a traceparent of the
// test's own; its event's automation run posts a webhook to a receiver. The spans received link
// the request, the dispatch, the workflow, its activity and the webhook's POST into one trace,
// the receiver gets that trace's traceparent, and the request's log line carries the trace id.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, postWebhook, startReceiver } from '../automation-runs/helpers';
import { api } from '../support/api';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-traces-'));
const own = ownDatabase('traces');
let service: ServiceProcess | undefined;
let collector: http.Server | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterAll(async () => {
  await service?.stop();
  await receiver?.close();
  collector?.closeAllConnections();
  await new Promise((resolve) => (collector ? collector.close(resolve) : resolve(undefined)));
  await own.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An OTLP/HTTP receiver: POST /v1/traces with OTLP's JSON encoding (what the service's exporter sends). */
async function startCollector(): Promise<{ url: string; spans: OtlpSpan[]; contentTypes: Set<string> }> {
  const spans: OtlpSpan[] = [];
  const contentTypes = new Set<string>();
  collector = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      contentTypes.add(String(req.headers['content-type']));
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const rs of body.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => collector!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`, spans, contentTypes };
}

test('one trace links the request, the dispatch, the workflow, its activity and the webhook delivery', async () => {
  await own.create();
  const otlp = await startCollector();
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

  const names = ['POST /backoffice/v1/contacts', 'dispatch automationRunWorkflow', 'StartWorkflow:automationRunWorkflow', 'RunWorkflow:automationRunWorkflow', 'StartActivity:runAutomation', 'RunActivity:runAutomation', 'POST'];
  const trace = () => otlp.spans.filter((s) => s.traceId === traceId);
  await eventually(async () => names.every((n) => trace().some((s) => s.name === n)), 30_000, `the spans ${names.join(', ')}`).catch((err) => {
    throw new Error(`${(err as Error).message}; received ${JSON.stringify(trace().map((s) => s.name))}`);
  });
  const spans = trace();
  const byName = (name: string) => spans.find((s) => s.name === name)!;
  // Each span's parent is the one before it: the request continues the caller's span.
  expect(byName(names[0]).parentSpanId).toBe(callerSpan);
  for (let i = 1; i < names.length; i++) expect([names[i], byName(names[i]).parentSpanId]).toEqual([names[i], byName(names[i - 1]).spanId]);
  // The receiver's traceparent is the webhook POST's span.
  expect(delivered.headers.traceparent).toBe(`00-${traceId}-${byName('POST').spanId}-01`);
  expect([...otlp.contentTypes]).toEqual(['application/json']);
  // The request's log line carries the trace id.
  const requestLine = service.output().split('\n').find((l) => l.includes('"msg":"request"') && l.includes('"method":"POST"') && l.includes('/contacts"') && l.includes(traceId));
  expect(requestLine).toBeDefined();
}, 180_000);
