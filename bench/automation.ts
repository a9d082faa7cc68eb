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

export async function runAutomationScenario(o: {
  base: string; key: string; contacts: number; clients: number; timeoutSeconds: number; log: (line: string) => void;
}): Promise<AutomationResult> {
  const headers = { 'Content-Type': 'application/json', api_key: o.key };
  const arrived = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const contactId = (JSON.parse(raw) as { data: { entity: { id: string } } }).data.entity.id;
      if (!arrived.has(contactId)) arrived.set(contactId, Date.now());
      res.writeHead(200).end();
    });
  });
  receiver.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  try {
    const port = (receiver.address() as AddressInfo).port;
    const webhook = await postJson(`${o.base}/webhooks`, headers, { name: 'Bench receiver', method: 'POST', url_endpoint: `http://127.0.0.1:${port}/hook`, url_auth: 'NO_AUTH' });
    const automation = await postJson(`${o.base}/automations`, headers, { name: 'Bench: webhook on registration', entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: 'ACTIVE' });
    await postJson(`${o.base}/automations/${automation}/actions`, headers, {
      content: [{ order: 1, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: webhook }] }],
    });

    const committed = new Map<string, number>();
    const start = Date.now();
    let next = 0;
    const client = async () => {
      while (next < o.contacts) {
        const n = next++;
        const id = await postJson(`${o.base}/contacts`, headers, { contact_type: 'PERSON', first_name: `Auto${n}`, last_name: 'Bench', email_address: `auto${n}@bench.test` });
        committed.set(id, Date.now());
      }
    };
    await Promise.all(Array.from({ length: o.clients }, client));
    const createSeconds = (Date.now() - start) / 1000;
    const until = Date.now() + o.timeoutSeconds * 1000;
    while (arrived.size < o.contacts && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const last = Math.max(...arrived.values());
    return {
      contacts: o.contacts,
      received: arrived.size,
      createSeconds,
      endToEndSeconds: (last - start) / 1000,
      latenciesMs: [...committed].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)! - at] : [])).sort((a, b) => a - b),
      timedOut: arrived.size < o.contacts,
    };
  } finally {
    await new Promise((r) => receiver.close(r));
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
