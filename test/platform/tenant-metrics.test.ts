// The per-tenant counters (docs/operations.md "Metrics") with METRICS_ORGANISATION_LABELS=true,
// and the report-run counter by outcome. Two organisations on one service of its own: A mails
// through an SMTP server that accepts, and its webhook's receiver answers 200; B mails through
// one that refuses every recipient (554), and its receiver answers 500. Each registers a contact
// (its automation posts the webhook), sends it an e-mail and runs a report. The service's
// /metrics then has every per-tenant series labelled with the organisation that caused it, with
// the outcomes the runs really had (report runs `sent` for A, `failed` for B), no organisation
// label anywhere else, and no other id, name or address the test wrote in any label or line.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { ownDatabase } from '../support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { metricsUrlOf, reportRunnerToken, samplesOf, scrape, type Sample } from '../support/telemetry';
import { createTenant, type Tenant } from '../support/tenants';
import { startRefusingSmtp, startSmtpSink } from '../communications/helpers';
import { automation, caller, eventually, postWebhook, startReceiver } from '../automation-runs/helpers';

const ORG_LABEL = 'backoffice_organisation_id';
/** docs/operations.md: the counters that carry the organisation label when it is on. */
const PER_TENANT = ['backoffice_automation_runs_total', 'backoffice_automation_event_to_effect_duration_count', 'backoffice_webhook_attempts_total', 'backoffice_communications_total', 'backoffice_report_runs_total'];

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-tenant-metrics-'));
const own = ownDatabase('tenant_metrics');
const tag = Date.now().toString(36);
const closers: Array<() => Promise<unknown>> = [];
let service: ServiceProcess | undefined;

afterAll(async () => {
  await service?.stop();
  for (const close of closers.reverse()) await close();
  await own.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** An SMTP server that refuses every recipient for good, as a relay that will not take the mail. */
async function startRefusingRelay(): Promise<number> {
  const relay = await startRefusingSmtp(554, 'Relay access denied');
  closers.push(relay.close);
  return relay.port;
}

interface Written {
  tenant: Tenant;
  /** Every id, name and address this organisation's load wrote. */
  values: string[];
  communication: string;
  reportRun: string;
}

/** One organisation's load: a contact registered (its run posts the webhook), an e-mail to it, a report run. */
async function load(letter: string, smtpPort: number, webhookUrl: string): Promise<Written> {
  const options = { baseUrl: service!.url, ca: serviceCa(dataDir) };
  const name = `Labels ${letter} ${tag}`;
  const tenant = await createTenant(name, dataDir, own.url);
  const call = caller(tenant.secretKey, options);
  const integration = (await call('POST', '/integrations', {
    name: 'Mail', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: smtpPort, secure: false, from_address: `shop-${letter}@labels.test` },
  })).id;
  const webhook = (await call('POST', '/webhooks', { name: 'Receiver', method: 'POST', url_endpoint: webhookUrl, url_auth: 'NO_AUTH' })).id;
  const automationId = await automation(call, 'REGISTER_CONTACT', [postWebhook(webhook)]);
  const person = { first_name: `First${letter}${tag}`, last_name: `Last${letter}${tag}`, email_address: `person-${letter}-${tag}@labels.test` };
  const contact = (await call('POST', '/contacts', { contact_type: 'PERSON', ...person })).id;
  const communication = (await call('POST', '/communications', { name: 'Note', contact_id: contact, channel: 'EMAIL', subject: `Subject ${tag}`, content: 'Counted' })).id;
  const recipient = `runner-${letter}-${tag}@labels.test`;
  const token = await reportRunnerToken(tenant, recipient, options);
  const run = await api('POST', '/reports/contacts', { ...options, token, body: {} });
  expect(run.status).toBe(200);
  return {
    tenant, communication, reportRun: run.body.id,
    values: [tenant.organisationId, name, tenant.admin.username, integration, webhook, automationId, contact, ...Object.values(person), communication, recipient, run.body.id],
  };
}

test('METRICS_ORGANISATION_LABELS=true: each per-tenant series names its organisation, report runs by outcome, nothing else personal', async () => {
  await own.create();
  const sink = await startSmtpSink();
  closers.push(sink.close);
  const refusingPort = await startRefusingRelay();
  const accepting = await startReceiver();
  const failing = await startReceiver(() => ({ status: 500, body: 'down' }));
  closers.push(accepting.close, failing.close);
  service = await startServiceProcess(serviceEnv(dataDir, { ...own.env, METRICS_ORGANISATION_LABELS: 'true' }));
  const metricsUrl = await metricsUrlOf(service);

  const a = await load('A', sink.port, accepting.url);
  const b = await load('B', refusingPort, failing.url);
  const options = { baseUrl: service.url, ca: serviceCa(dataDir) };
  // Settled as the API says: the communications and report runs, B's webhook request.
  const settled = async (w: Written, route: string, field: string, states: string[]) => eventually(async () => {
    const res = await api('GET', route, { ...options, key: w.tenant.secretKey });
    return states.includes(res.body[field]) ? res.body[field] : undefined;
  }, 90_000, `${route} settled`);
  expect(await settled(a, `/communications/${a.communication}`, 'life_cycle_state', ['SENT', 'FAILED'])).toBe('SENT');
  expect(await settled(b, `/communications/${b.communication}`, 'life_cycle_state', ['SENT', 'FAILED'])).toBe('FAILED');
  expect(await settled(a, `/reports/contacts/runs/${a.reportRun}`, 'state', ['SENT', 'FAILED'])).toBe('SENT');
  expect(await settled(b, `/reports/contacts/runs/${b.reportRun}`, 'state', ['SENT', 'FAILED'])).toBe('FAILED');
  const bRequests = await eventually(async () => {
    const res = await api('GET', '/webhook_requests', { ...options, key: b.tenant.secretKey });
    const rows = res.body.content as Array<{ state: string }>;
    return rows.length === 1 && rows[0].state === 'FAILED' ? rows : undefined;
  }, 60_000, "B's webhook request FAILED");
  expect(bRequests).toHaveLength(1);

  const A = { [ORG_LABEL]: a.tenant.organisationId };
  const B = { [ORG_LABEL]: b.tenant.organisationId };
  const value = (samples: Sample[], name: string, labels: Record<string, string>) => samplesOf(samples, name, labels).reduce((sum, s) => sum + s.value, 0);
  // The counters move just after the rows they count: scrape until they show what the API said.
  let last: Sample[] = [];
  const { text, samples } = await eventually(async () => {
    const scraped = await scrape(metricsUrl);
    const s = (last = scraped.samples);
    const ready = value(s, 'backoffice_report_runs_total', {}) === 2 && value(s, 'backoffice_communications_total', {}) === 2
      && value(s, 'backoffice_webhook_attempts_total', { ...B, backoffice_outcome: 'failed' }) === 1
      && value(s, 'backoffice_automation_runs_total', A) >= 1 && value(s, 'backoffice_automation_runs_total', B) >= 1;
    return ready ? scraped : undefined;
  }, 30_000, 'the counters').catch((err) => {
    throw new Error(`${(err as Error).message}; last scrape: ${JSON.stringify(last.filter((x) => PER_TENANT.includes(x.name)))}`);
  });

  // Report runs: one `sent` for A, one `failed` for B, nothing else.
  expect(samplesOf(samples, 'backoffice_report_runs_total').map((s) => [s.labels[ORG_LABEL], s.labels.backoffice_outcome, s.value]).sort()).toEqual([
    [a.tenant.organisationId, 'sent', 1], [b.tenant.organisationId, 'failed', 1],
  ].sort());
  expect(samplesOf(samples, 'backoffice_communications_total').map((s) => [s.labels[ORG_LABEL], s.labels.backoffice_channel, s.labels.backoffice_outcome, s.value]).sort()).toEqual([
    [a.tenant.organisationId, 'email', 'sent', 1], [b.tenant.organisationId, 'email', 'failed', 1],
  ].sort());
  // A's webhook succeeded at once; B's every attempt failed: retries, then the last one `failed`.
  expect(value(samples, 'backoffice_webhook_attempts_total', { ...A, backoffice_outcome: 'success' })).toBe(1);
  expect(value(samples, 'backoffice_webhook_attempts_total', A)).toBe(1);
  expect(value(samples, 'backoffice_webhook_attempts_total', { ...B, backoffice_outcome: 'success' })).toBe(0);
  expect(value(samples, 'backoffice_webhook_attempts_total', B)).toBe(failing.received.length);
  expect(failing.received.length).toBeGreaterThan(1);
  // A's run completed once, with its event-to-effect time; B's run is counted under B.
  expect(value(samples, 'backoffice_automation_runs_total', { ...A, backoffice_outcome: 'completed' })).toBe(1);
  expect(value(samples, 'backoffice_automation_event_to_effect_duration_count', A)).toBe(1);
  expect(value(samples, 'backoffice_automation_event_to_effect_duration_count', B)).toBeGreaterThanOrEqual(1);

  // Every series of those counters carries the label, and only the two organisations' ids.
  for (const name of PER_TENANT) {
    const series = samplesOf(samples, name);
    expect([name, series.length > 0]).toEqual([name, true]);
    expect([name, [...new Set(series.map((s) => s.labels[ORG_LABEL]))].sort()]).toEqual([name, [a.tenant.organisationId, b.tenant.organisationId].sort()]);
  }
  // No other metric has it: requests, the dispatcher, the backlog, the pool, the process.
  const others = samples.filter((s) => s.labels[ORG_LABEL] !== undefined && !PER_TENANT.some((n) => s.name.startsWith(n.replace(/_(total|count)$/, ''))));
  expect(others.map((s) => s.name)).toEqual([]);
  expect(samplesOf(samples, 'http_server_request_duration_count').length).toBeGreaterThan(0);

  // Apart from that label's values, nothing the test wrote is anywhere in the exposition.
  const rest = text.replace(new RegExp(`${ORG_LABEL}="[^"]*"`, 'g'), '');
  for (const v of [...a.values, ...b.values]) expect([v, rest.includes(v)]).toEqual([v, false]);
  for (const s of samples) {
    for (const [k, v] of Object.entries(s.labels)) if (k !== ORG_LABEL) expect([s.name, k, /[0-9a-f]{8}-[0-9a-f]{4}-/.test(v)]).toEqual([s.name, k, false]);
  }
  // The service never mailed B's refused messages anywhere else; A's two arrived.
  expect(sink.mails.map((m) => m.messageId).sort()).toEqual([`<communication-${a.communication}@backoffice>`, `<report-${a.reportRun}@backoffice>`].sort());
}, 240_000);
