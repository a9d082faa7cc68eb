import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { api } from '../support/api';

export interface Received {
  method: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: any;
}

/** A real HTTP receiver on 127.0.0.1 that keeps every request and answers 200. */
export async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      received.push({ method: req.method ?? '', headers: req.headers, raw, body: raw ? JSON.parse(raw) : null });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, received, close: () => new Promise((r) => server.close(() => r())) };
}

/** Standard Webhooks: every `v1,<sig>` of the header, checked against the secret (whsec_<base64>). */
export function signatureValid(headers: http.IncomingHttpHeaders, raw: string, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${raw}`).digest('base64');
  return String(headers['webhook-signature'] ?? '').split(' ').some((s) => s === `v1,${expected}`);
}

export async function eventually<T>(probe: () => Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

type Call = (method: string, route: string, body?: object) => Promise<any>;

/** A caller that expects 200 and answers the body. */
export function caller(key: string, options: { baseUrl?: string; ca?: string } = {}): Call {
  return async (method, route, body) => {
    const res = await api(method, route, { ...options, key, body });
    expect([method, route, res.status, res.status === 200 ? '' : res.text]).toEqual([method, route, 200, '']);
    return res.body;
  };
}

/** An ACTIVE automation on `event` with the given action sequence. */
export async function automation(call: Call, event: string, actions: object[], entity = 'CONTACTS'): Promise<string> {
  const { id } = await call('POST', '/automations', { name: `On ${event} ${Math.random().toString(36).slice(2, 7)}`, entity, event, life_cycle_state: 'ACTIVE' });
  await call('POST', `/automations/${id}/actions`, { content: actions.map((a, i) => ({ order: i + 1, ...a })) });
  return id;
}

export const param = (key: string, value: string | number) => ({ parameter_key: key, parameter_from_value: String(value) });

export const postWebhook = (webhookId: string, filters: object[] = []) => ({
  adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [param('webhook_id', webhookId)], action_filters: filters,
});
