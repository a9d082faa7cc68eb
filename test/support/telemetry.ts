// Pieces of the telemetry tests (test/platform/prometheus.test.ts, tenant-metrics.test.ts, traces.test.ts,
// worker-traces.test.ts).
import http from 'node:http';
import net from 'node:net';
import { eventually } from '../communications/helpers';
import { api } from './api';
import type { ServiceProcess } from './service-process';
import type { Tenant } from './tenants';

/** A port free a moment ago (for a listener that cannot pick its own, like the SDK's metrics endpoint). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The endpoint the service printed (src/main.ts: `Metrics: <url>`). */
export async function metricsUrlOf(service: ServiceProcess, ms = 10_000): Promise<string> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 100))) {
    const match = /Metrics: (\S+)/.exec(service.output());
    if (match) return match[1];
  }
  throw new Error(`the service printed no metrics endpoint:\n${service.output().slice(-2000)}`);
}

/** The database a service on `dataDir` uses: its own PostgreSQL one, or its embedded one. */

/** One sample of a Prometheus text exposition: `name{label="value",…} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** GET `metricsUrl` and every sample in it (comment lines left out); label values unescaped. */
export async function scrape(metricsUrl: string): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(metricsUrl);
  if (!res.ok) throw new Error(`GET ${metricsUrl}: ${res.status}`);
  const text = await res.text();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]] = l[2].replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { text, samples };
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/**
 * A bearer token of `tenant`'s admin, given the e-mail address `email` first: a report run is
 * mailed to the user who runs it (docs/reports.md "Recipient").
 */
export async function reportRunnerToken(tenant: Tenant, email: string, options: { baseUrl: string; ca: string }): Promise<string> {
  const users = await api('GET', `/users?username=${encodeURIComponent(tenant.admin.username)}`, { ...options, key: tenant.secretKey });
  const id = (users.body.content as Array<{ id: string }>)[0].id;
  const put = await api('PUT', `/users/${id}`, { ...options, key: tenant.secretKey, body: { email } });
  if (put.status !== 200) throw new Error(`PUT /users/${id}: ${put.status} ${put.text}`);
  const login = await api('POST', '/users/login', { ...options, body: { username: tenant.admin.username, password: tenant.admin.password } });
  if (login.status !== 200) throw new Error(`POST /users/login: ${login.status} ${login.text}`);
  return login.body.access_token as string;
}

/** A span as OTLP/HTTP's JSON encoding carries it, with its process's `service.instance.id`. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  /** The resource's service.instance.id: `api-<pid>` or `worker-<pid>` (src/telemetry/start.ts). */
  instance?: string;
}

export interface OtlpCollector {
  url: string;
  spans: OtlpSpan[];
  contentTypes: Set<string>;
  close(): Promise<void>;
}

/** An OTLP/HTTP receiver: POST /v1/traces with OTLP's JSON encoding (what the service's exporter sends). */
export async function startCollector(): Promise<OtlpCollector> {
  const spans: OtlpSpan[] = [];
  const contentTypes = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      contentTypes.add(String(req.headers['content-type']));
      if (req.method !== 'POST' || req.url !== '/v1/traces') return void res.writeHead(404).end();
      type Attribute = { key: string; value: { stringValue?: string } };
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { resourceSpans: Array<{ resource?: { attributes?: Attribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
      for (const rs of body.resourceSpans) {
        const instance = rs.resource?.attributes?.find((a) => a.key === 'service.instance.id')?.value.stringValue;
        for (const ss of rs.scopeSpans) spans.push(...ss.spans.map((s) => ({ ...s, instance })));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    spans,
    contentTypes,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** docs/operations.md "Traces": a request's spans to its webhook, each the parent of the next. */
export const REQUEST_TO_WEBHOOK = ['POST /backoffice/v1/contacts', 'dispatch automationRunWorkflow', 'StartWorkflow:automationRunWorkflow', 'RunWorkflow:automationRunWorkflow', 'StartActivity:runAutomation', 'RunActivity:runAutomation', 'POST'];

/**
 * Waits until the collector has every span of REQUEST_TO_WEBHOOK in trace `traceId`, checks that
 * the first continues `callerSpan` and each later one is a child of the one before, and answers
 * the spans by name.
 */
export async function requestToWebhookTrace(collector: OtlpCollector, traceId: string, callerSpan: string): Promise<Record<string, OtlpSpan>> {
  const names = REQUEST_TO_WEBHOOK;
  const trace = () => collector.spans.filter((s) => s.traceId === traceId);
  await eventually(async () => names.every((n) => trace().some((s) => s.name === n)), 30_000, `the spans ${names.join(', ')}`).catch((err) => {
    throw new Error(`${(err as Error).message}; received ${JSON.stringify(trace().map((s) => s.name))}`);
  });
  const byName = Object.fromEntries(names.map((n) => [n, trace().find((s) => s.name === n)!]));
  expect(byName[names[0]].parentSpanId).toBe(callerSpan);
  for (let i = 1; i < names.length; i++) expect([names[i], byName[names[i]].parentSpanId]).toEqual([names[i], byName[names[i - 1]].spanId]);
  return byName;
}
