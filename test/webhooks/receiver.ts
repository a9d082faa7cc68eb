// A real HTTP receiver for webhook tests: on 127.0.0.1, which the test service allows
// (OUTBOUND_ALLOW_CIDRS in test/support/service-process.ts), or on another loopback address.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** What to answer: a status and body, or 'hang' (never answer). */
export type Answer = { status: number; body?: string } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startReceiver(answer: (r: Received, index: number) => Answer = () => ({ status: 200, body: 'ok' }), host = '127.0.0.1'): Promise<Receiver> {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(r);
      const a = answer(r, received.length - 1);
      if (a === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/hook`,
    received,
    close: () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The Standard Webhooks signature a receiver computes with a secret. */
export function expectedSignature(secret: string, r: Received): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signed = `${r.headers['webhook-id']}.${r.headers['webhook-timestamp']}.${r.body}`;
  return `v1,${createHmac('sha256', key).update(signed).digest('base64')}`;
}
