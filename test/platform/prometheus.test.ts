// A real Prometheus (Debian's `prometheus`, .ci/run installs it) scrapes a service under a little
// load, and its query API answers what the test caused (docs/operations.md "Metrics"): request
// counts and rates by route template, method and status; automation runs, webhook attempts and
// communications and report runs by outcome; the outbox backlog gauge and its oldest age; the pool; the Temporal
// SDK's worker metrics on their own endpoint (TEMPORAL_METRICS_PORT). With METRICS_ORGANISATION_LABELS off (the
// default) no label value, neither in Prometheus nor in the service's own exposition, holds an id, name or
// address the test wrote (tenant-metrics.test.ts: the label on).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { freePort, metricsUrlOf, reportRunnerToken, scrape } from '../support/telemetry';
import { createTenant } from '../support/tenants';
import { automation, caller, eventually, postWebhook, startReceiver } from '../automation-runs/helpers';

const PROMETHEUS = ['/usr/bin/prometheus', '/usr/local/bin/prometheus'].find((p) => existsSync(p));
if (!PROMETHEUS) process.stdout.write('skipping test/platform/prometheus.test.ts: no prometheus binary (Debian: apt-get install prometheus; .ci/run installs it)\n');

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-prometheus-'));
const own = ownDatabase('prometheus_metrics');
let service: ServiceProcess | undefined;
let prometheus: ChildProcess | undefined;
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

afterAll(async () => {
  prometheus?.kill('SIGTERM');
  await service?.stop();
  await receiver?.close();
  await own.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** One instant query: the samples' labels and values. */
async function query(base: string, promql: string): Promise<Array<{ metric: Record<string, string>; value: number }>> {
  const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; error?: string; data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } };
  if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
  return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
}

/** The one value of `promql` once it is `expected` (later scrapes bring it there). */
async function settles(base: string, promql: string, expected: (v: number) => boolean, what: string): Promise<number> {
  let last: unknown;
  const found = await eventually(async () => {
    const result = await query(base, promql);
    last = result;
    return result.length === 1 && expected(result[0].value) ? { value: result[0].value } : undefined;
  }, 40_000, `${what} (${promql})`).catch((err) => {
    throw new Error(`${(err as Error).message}; last answer ${JSON.stringify(last)}`);
  });
  return found.value;
}

(PROMETHEUS ? test : test.skip)('Prometheus scrapes the request, run, webhook, backlog and pool metrics the load caused', async () => {
  await own.create();
  const temporalMetricsPort = await freePort();
  service = await startServiceProcess(serviceEnv(dataDir, { ...own.env, TEMPORAL_METRICS_PORT: String(temporalMetricsPort) }));
  const metricsUrl = await metricsUrlOf(service);

  const promPort = await freePort();
  const promDir = path.join(dataDir, 'prometheus');
  const config = path.join(dataDir, 'prometheus.yml');
  writeFileSync(config, [
    'global: { scrape_interval: 1s, evaluation_interval: 1s }',
    'scrape_configs:',
    `  - { job_name: backoffice, static_configs: [{ targets: ['${new URL(metricsUrl).host}'] }] }`,
    `  - { job_name: temporal-worker, static_configs: [{ targets: ['127.0.0.1:${temporalMetricsPort}'] }] }`,
    '',
  ].join('\n'));
  prometheus = spawn(PROMETHEUS!, [`--config.file=${config}`, `--storage.tsdb.path=${promDir}`, `--web.listen-address=127.0.0.1:${promPort}`, '--log.level=warn'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const base = `http://127.0.0.1:${promPort}`;
  await eventually(async () => (await fetch(`${base}/-/ready`).catch(() => null))?.ok, 30_000, 'prometheus ready');

  // The load: contacts whose automation posts a webhook, reads of them, one unknown id.
  receiver = await startReceiver();
  const tag = Date.now().toString(36);
  const tenant = await createTenant(`Prometheus ${tag}`, dataDir, own.url);
  const { secretKey, organisationId } = tenant;
  const options = { baseUrl: service.url, ca: serviceCa(dataDir) };
  const call = caller(secretKey, options);
  const webhook = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: receiver.url, url_auth: 'NO_AUTH' })).id;
  const automationId = await automation(call, 'REGISTER_CONTACT', [postWebhook(webhook)]);
  /** Every id, name and address the load writes: none may show in a label. */
  const written = [organisationId, `Prometheus ${tag}`, tenant.admin.username, webhook, automationId];
  const CONTACTS = 4;
  const ids: string[] = [];
  const route = (r: string, method: string, status: number) => `http_server_request_duration_count{job="backoffice",http_route="/backoffice/v1${r}",http_request_method="${method}",http_response_status_code="${status}"}`;
  // One contact first, seen by a scrape, then the rest: a rate needs two samples that differ.
  for (let i = 0; i < CONTACTS; i++) {
    ids.push((await call('POST', '/contacts', { contact_type: 'PERSON', first_name: `Pat${tag}`, last_name: `Scraped${tag}-${i}` })).id);
    if (i === 0) await settles(base, route('/contacts', 'POST', 200), (v) => v === 1, 'the first POST /contacts scraped');
  }
  for (const id of ids) await call('GET', `/contacts/${id}`);
  expect((await api('GET', `/contacts/${randomUUID()}`, { key: secretKey, baseUrl: service.url, ca: serviceCa(dataDir) })).status).toBe(404);
  await eventually(async () => receiver!.received.length >= CONTACTS, 30_000, 'the webhooks');
  // One e-mail through the SYSTEM mailer (the data directory's outbox).
  const mailed = (await call('POST', '/contacts', { contact_type: 'PERSON', first_name: `Mo${tag}`, last_name: `Mailed${tag}`, email_address: `mo-${tag}@example.com` })).id;
  const communication = (await call('POST', '/communications', { name: 'Note', contact_id: mailed, channel: 'EMAIL', subject: 'Hello', content: 'Counted' })).id;
  // One report run, mailed the same way to the admin who runs it.
  const recipient = `runner-${tag}@example.com`;
  const reportRun = await api('POST', '/reports/contacts', { ...options, token: await reportRunnerToken(tenant, recipient, options), body: {} });
  expect(reportRun.status).toBe(200);
  written.push(...ids, `Pat${tag}`, `Scraped${tag}`, mailed, `Mo${tag}`, `Mailed${tag}`, `mo-${tag}@example.com`, communication, recipient, reportRun.body.id);

  // A workflow intent that waits: held for an hour, written two minutes ago.
  const db = new pg.Client({ connectionString: own.urlOf(dataDir) });
  await db.connect();
  await db.query(
    `INSERT INTO workflow_intents (id, organisation_id, kind, workflow_id, signal_name, signal_args, created_at, claimed_until)
     VALUES ($1, $2, 'signal', 'prometheus-test:none', 'approvalDecided', '[]', now() - interval '2 minutes', now() + interval '1 hour')`,
    [randomUUID(), organisationId],
  );
  await db.end();

  const t0 = Date.now();
  expect(await settles(base, route('/contacts', 'POST', 200), (v) => v === CONTACTS + 1, 'POST /contacts counted')).toBe(CONTACTS + 1);
  expect(await settles(base, route('/contacts/{id}', 'GET', 200), (v) => v === CONTACTS, 'GET /contacts/{id} counted')).toBe(CONTACTS);
  expect(await settles(base, route('/contacts/{id}', 'GET', 404), (v) => v === 1, 'the 404 counted')).toBe(1);
  const rate = await settles(base, `sum(rate(${route('/contacts', 'POST', 200)}[5m]))`, (v) => v > 0, 'a POST /contacts rate');
  // No path carries an id: every label value of the route is a template.
  const routes = (await query(base, 'count by (http_route) (http_server_request_duration_count)')).map((r) => r.metric.http_route).filter(Boolean);
  expect(routes.filter((r) => /[0-9a-f]{8}-/.test(r))).toEqual([]);

  // Every contact registered runs the automation: the mailed one too.
  const RUNS = CONTACTS + 1;
  expect(await settles(base, 'backoffice_automation_runs_total{backoffice_outcome="completed"}', (v) => v === RUNS, 'completed runs')).toBe(RUNS);
  expect(await settles(base, 'backoffice_webhook_attempts_total{backoffice_outcome="success"}', (v) => v === RUNS, 'webhook successes')).toBe(RUNS);
  expect(await settles(base, 'backoffice_automation_event_to_effect_duration_count', (v) => v === RUNS, 'event-to-effect times')).toBe(RUNS);
  expect(await settles(base, 'backoffice_dispatcher_starts_total{backoffice_dispatch_kind="automation_run"}', (v) => v === RUNS, 'dispatched runs')).toBe(RUNS);
  expect(await settles(base, 'backoffice_communications_total{backoffice_channel="email",backoffice_outcome="sent"}', (v) => v === 1, 'the mail sent')).toBe(1);
  expect(await settles(base, 'backoffice_report_runs_total{backoffice_outcome="sent"}', (v) => v === 1, 'the report run mailed')).toBe(1);
  expect(await settles(base, 'sum(backoffice_dispatcher_failures_total) or vector(0)', (v) => v === 0, 'no failed dispatch')).toBe(0);
  expect(await settles(base, 'backoffice_outbox_backlog{backoffice_queue="workflow_intents"}', (v) => v === 1, 'the held intent in the backlog')).toBe(1);
  const age = await settles(base, 'backoffice_outbox_oldest_age{backoffice_queue="workflow_intents"}', (v) => v >= 120, 'the oldest intent two minutes old');
  expect(await settles(base, 'backoffice_outbox_backlog{backoffice_queue="outbox_events"}', (v) => v === 0, 'no event left')).toBe(0);
  expect(await settles(base, 'db_client_connection_max', (v) => v === 20, 'the pool size')).toBe(20);
  expect(await settles(base, 'up{job="temporal-worker"}', (v) => v === 1, 'the SDK endpoint scraped')).toBe(1);
  expect(await settles(base, 'sum(temporal_long_request{job="temporal-worker"})', (v) => v > 0, 'the worker polls')).toBeGreaterThan(0);
  // METRICS_ORGANISATION_LABELS is off: nothing the load wrote in any label Prometheus stored,
  // nor anywhere in the service's own exposition (HELP lines and target_info included).
  const series = await (await fetch(`${base}/api/v1/series?match[]=${encodeURIComponent('{job="backoffice"}')}`)).json() as { data: object[] };
  const stored = JSON.stringify(series.data);
  const { text: exposition, samples } = await scrape(metricsUrl);
  expect(samples.filter((s) => s.name.startsWith('backoffice_report_runs')).length).toBeGreaterThan(0);
  for (const v of written) expect([v, stored.includes(v), exposition.includes(v)]).toEqual([v, false, false]);
  expect(samples.filter((s) => 'backoffice_organisation_id' in s.labels)).toEqual([]);
  process.stdout.write(`queries settled in ${Date.now() - t0} ms\n`);
  process.stdout.write(`PromQL sum(rate(${route('/contacts', 'POST', 200)}[5m])) = ${rate}; backoffice_outbox_oldest_age{backoffice_queue="workflow_intents"} = ${age}\n`);
}, 180_000);
