// Outbound requests keep their connection (src/outbound/http.ts, issue 32): attempts to one
// receiver share a TCP connection, and an answer cut at the size limit or a timed-out exchange
// closes its connection instead of leaving it to the next request. Real HTTP receivers.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { loadConfig } from '../../src/config';
import { sendHttp } from '../../src/outbound';

const config = loadConfig({ ...process.env, OUTBOUND_ALLOW_CIDRS: '127.0.0.1/32' });

async function receiver(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const connections: Socket[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res));
  });
  server.on('connection', (socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, connections, close: () => new Promise((r) => server.close(r)) };
}

const post = (url: string, extra: Partial<Parameters<typeof sendHttp>[1]> = {}) =>
  sendHttp(config, { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: '{"n":1}', timeoutMs: 2_000, ...extra });

test('attempts to one receiver share one connection', async () => {
  const r = await receiver((_req, res) => res.writeHead(200).end('ok'));
  try {
    for (let i = 0; i < 5; i++) expect((await post(r.url)).status).toBe(200);
    expect(r.connections.length).toBe(1);
  } finally {
    await r.close();
  }
});

test('an answer cut at the limit, and an exchange that timed out, close their connections', async () => {
  let hang = false;
  const r = await receiver((_req, res) => {
    if (hang) return; // never answers: the exchange times out
    res.writeHead(200).end('x'.repeat(5000));
  });
  try {
    expect(await post(r.url, { maxResponseBytes: 100 })).toMatchObject({ status: 200, truncated: true });
    hang = true;
    await expect(post(r.url, { timeoutMs: 300 })).rejects.toThrow(/timeout/);
    hang = false;
    expect((await post(r.url)).status).toBe(200);
    // Neither the cut answer's nor the timed-out exchange's connection was used again.
    expect(r.connections.length).toBe(3);
    expect(r.connections.slice(0, 2).every((s) => s.destroyed)).toBe(true);
  } finally {
    r.connections.forEach((s) => s.destroy());
    await r.close();
  }
});
