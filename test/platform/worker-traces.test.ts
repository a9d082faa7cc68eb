// The trace of traces.test.ts across processes, as at scale (ARCHITECTURE.md): an API process
// that runs no worker (RUN_WORKER=false; it keeps the embedded Temporal server and the
// dispatcher) and a standalone worker, the compiled one `npm run worker` runs
// (`node dist/src/temporal/worker.js`), on the same data directory, both exporting to one OTLP
// listener. The request, the dispatch and the workflow's start come from the API process; the
// workflow, its activity and the webhook's POST from the worker, which bundled its workflow code
// with the tracing interceptors at start (docs/operations.md "Traces" 4); all are one trace,
// each span the child of the one before, and the receiver gets the POST's traceparent.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { ROOT, serviceEnv, startServiceProcess, startWorkerProcess, type ServiceProcess, type WorkerProcess } from '../support/service-process';
import { freePort, REQUEST_TO_WEBHOOK, requestToWebhookTrace, startCollector, type OtlpCollector } from '../support/telemetry';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, postWebhook, startReceiver } from '../automation-runs/helpers';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-worker-traces-'));
const own = ownDatabase('worker_traces');
let service: ServiceProcess | undefined;
let worker: WorkerProcess | undefined;
let collector: OtlpCollector | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterAll(async () => {
  await worker?.stop();
  await service?.stop();
  await receiver?.close();
  await collector?.close();
  await own.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('an API process and a compiled standalone worker: one trace from the request to the webhook, spans from both', async () => {
  await own.create();
  const otlp = (collector = await startCollector());
  receiver = await startReceiver();
  // The worker finds the embedded Temporal server by its port (and its key in the data directory).
  const temporal = { TEMPORAL_EMBEDDED_PORT: String(await freePort()), OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url };
  service = await startServiceProcess(serviceEnv(dataDir, { ...own.env, ...temporal, RUN_WORKER: 'false', LOG_LEVEL: 'info' }));
  // What `npm run worker` does before `node dist/src/temporal/worker.js`: a no-op when dist/ is current.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
  worker = await startWorkerProcess(serviceEnv(dataDir, { ...own.env, ...temporal }), 120_000, { compiled: true });
  // With tracing on the worker bundles its workflows with the interceptors rather than taking dist/workflow-bundle.js.
  expect(worker.output()).toMatch(/Workflow bundle created/);

  const { secretKey } = await createTenant('worker traces', dataDir, own.url);
  const options = { baseUrl: service.url, ca: serviceCa(dataDir) };
  const call = caller(secretKey, options);
  const webhook = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  await automation(call, 'REGISTER_CONTACT', [postWebhook(webhook)]);

  const traceId = randomBytes(16).toString('hex');
  const callerSpan = randomBytes(8).toString('hex');
  const created = await api('POST', '/contacts', { ...options, key: secretKey, body: { contact_type: 'PERSON', first_name: 'Wyn', last_name: 'Worker' }, headers: { traceparent: `00-${traceId}-${callerSpan}-01` } });
  expect(created.status).toBe(200);
  const delivered = await eventually(async () => receiver!.received.find((r) => JSON.parse(r.body).data?.entity?.id === created.body.id), 60_000, 'the webhook');

  const byName = await requestToWebhookTrace(otlp, traceId, callerSpan);
  // Up to the workflow's start in the API process, from the workflow on in the worker.
  const api_ = `api-${service.child.pid}`;
  const worker_ = `worker-${worker.child.pid}`;
  expect(REQUEST_TO_WEBHOOK.map((n) => [n, byName[n].instance])).toEqual(REQUEST_TO_WEBHOOK.map((n, i) => [n, i < 3 ? api_ : worker_]));
  expect(delivered.headers.traceparent).toBe(`00-${traceId}-${byName.POST.spanId}-01`);
}, 240_000);
