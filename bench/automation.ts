// The automation scenario of `npm run bench` (`BENCH_ONLY=automation`, issue 10 part 8): one
// ACTIVE automation on REGISTER_CONTACT posting a webhook to a local HTTP receiver; contacts
// created by BENCH_AUTOMATION_CLIENTS concurrent clients (default 20) until
// BENCH_AUTOMATION_CONTACTS (default 2,000) exist. Measured: contacts created per second, automation
// runs per second end to end (first request → last webhook received), and the latency from each
// contact's 200 (its commit is done by then) to its webhook arriving.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { postJson } from './http';

export interface AutomationResult {
  contacts: number;
  received: number;
  createSeconds: number;
  endToEndSeconds: number;
  latenciesMs: number[];
  timedOut: boolean;
}

/**
 * The webhook receiver: the first arrival of each contact's webhook (`data.entity.id`), and how
 * many webhooks came per contact and per `webhook-id` (more than one: a duplicate delivery).
 */
export interface Receiver {
  url: string;
  arrived: Map<string, number>;
  perContact: Map<string, number>;
  perWebhookId: Map<string, number>;
  /** Forgets every arrival (the next run starts counting from zero). */
  reset(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const arrived = new Map<string, number>();
  const perContact = new Map<string, number>();
  const perWebhookId = new Map<string, number>();
  const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const contactId = (JSON.parse(raw) as { data: { entity: { id: string } } }).data.entity.id;
      if (!arrived.has(contactId)) arrived.set(contactId, Date.now());
      bump(perContact, contactId);
      bump(perWebhookId, String(req.headers['webhook-id']));
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived, perContact, perWebhookId,
    reset() {
      arrived.clear();
      perContact.clear();
      perWebhookId.clear();
    },
    close: () => new Promise((r) => {
      server.close(() => r());
      server.closeAllConnections();
    }),
  };
}

/** Through the service's REST API: a webhook to `url`, an ACTIVE automation on REGISTER_CONTACT and its one POST_WEBHOOK action. */
export async function setUpWebhookAutomation(base: string, key: string, url: string): Promise<{ webhookId: string; automationId: string }> {
  const headers = { 'Content-Type': 'application/json', api_key: key };
  const webhookId = await postJson(`${base}/webhooks`, headers, { name: 'Bench receiver', method: 'POST', url_endpoint: url, url_auth: 'NO_AUTH' });
  const automationId = await postJson(`${base}/automations`, headers, { name: 'Bench: webhook on registration', entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: 'ACTIVE' });
  await postJson(`${base}/automations/${automationId}/actions`, headers, {
    content: [{ order: 1, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: webhookId }] }],
  });
  return { webhookId, automationId };
}

/** `contacts` POST /contacts from `clients` concurrent clients (`tag` keeps e-mail addresses apart between runs): each id with the time of its 200. */
/** `base`: one API, or several (replicas), whose clients take them in turn. */
export async function registerContacts(base: string | string[], key: string, contacts: number, clients: number, tag = ''): Promise<{ committed: Map<string, number>; start: number; seconds: number }> {
  const bases = Array.isArray(base) ? base : [base];
  const headers = { 'Content-Type': 'application/json', api_key: key };
  const committed = new Map<string, number>();
  const start = Date.now();
  let next = 0;
  const client = async (_: unknown, i: number) => {
    while (next < contacts) {
      const n = next++;
      const id = await postJson(`${bases[i % bases.length]}/contacts`, headers, { contact_type: 'PERSON', first_name: `Auto${n}`, last_name: 'Bench', email_address: `auto${tag}${n}@bench.test` });
      committed.set(id, Date.now());
    }
  };
  await Promise.all(Array.from({ length: clients }, client));
  return { committed, start, seconds: (Date.now() - start) / 1000 };
}

/** Waits until every contact's webhook arrived or `timeoutSeconds` passed. */
export async function awaitWebhooks(receiver: Receiver, contacts: number, timeoutSeconds: number): Promise<boolean> {
  const until = Date.now() + timeoutSeconds * 1000;
  while (receiver.arrived.size < contacts && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  return receiver.arrived.size >= contacts;
}

/** Each committed contact's time from its 200 to its webhook's first arrival, sorted. */
export function latencies(committed: Map<string, number>, arrived: Map<string, number>): number[] {
  return [...committed].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)! - at] : [])).sort((a, b) => a - b);
}

export async function runAutomationScenario(o: {
  base: string; key: string; contacts: number; clients: number; timeoutSeconds: number; log: (line: string) => void;
}): Promise<AutomationResult> {
  const receiver = await startReceiver();
  try {
    await setUpWebhookAutomation(o.base, o.key, receiver.url);
    const { committed, start, seconds } = await registerContacts(o.base, o.key, o.contacts, o.clients);
    const complete = await awaitWebhooks(receiver, o.contacts, o.timeoutSeconds);
    const last = Math.max(...receiver.arrived.values());
    return {
      contacts: o.contacts,
      received: receiver.arrived.size,
      createSeconds: seconds,
      endToEndSeconds: (last - start) / 1000,
      latenciesMs: latencies(committed, receiver.arrived),
      timedOut: !complete,
    };
  } finally {
    await receiver.close();
  }
}

/** Issue 22 part 3: ≥ 100 runs/s with p99 < 2 s on the embedded shape, ≥ 200 runs/s at scale. */
export interface AutomationAim {
  runsPerSecond: number;
  p99Ms?: number;
}

export function printAutomation(r: AutomationResult, clients: number, log: (line: string) => void, aim: AutomationAim): void {
  const pct = (p: number) => r.latenciesMs[Math.min(r.latenciesMs.length - 1, Math.floor((p / 100) * r.latenciesMs.length))] ?? NaN;
  log('| contacts | clients | webhooks received | contacts/s | automation runs/s (first request → last webhook) | p50 ms (200 → webhook) | p99 ms | max ms | aim |');
  log('|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  const runsPerSecond = r.received / r.endToEndSeconds;
  const met = runsPerSecond >= aim.runsPerSecond && (aim.p99Ms === undefined || pct(99) < aim.p99Ms) && !r.timedOut;
  const text = `≥ ${aim.runsPerSecond} runs/s${aim.p99Ms === undefined ? '' : `, p99 < ${aim.p99Ms / 1000} s`}`;
  log(`| ${r.contacts} | ${clients} | ${r.received}${r.timedOut ? ' (timed out)' : ''} | ${(r.contacts / r.createSeconds).toFixed(0)} | ${runsPerSecond.toFixed(0)} | ${pct(50)} | ${pct(99)} | ${r.latenciesMs.at(-1)} | ${text}: ${met ? 'met' : 'missed'} |`);
}
