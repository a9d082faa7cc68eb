// TRUST_PROXY (issue 20 part 6): the proxies are named, and only they may say that a plain
// connection was HTTPS or who the client is. The service's own listener and middleware, over
// real sockets from 127.0.0.1.
import express from 'express';
import { once } from 'node:events';
import http from 'node:http';
import https from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { requireForwardedHttps } from '../../src/api/middleware/https';
import { responseHeaders } from '../../src/api/middleware/response-headers';
import { createServer } from '../../src/api/server';
import { ConfigError, loadConfig, type Config, type TrustProxy } from '../../src/config';
import { loadTls, type TlsMaterial } from '../../src/tls';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-proxies-'));
let tls: TlsMaterial;
beforeAll(async () => {
  tls = await loadTls({ dataDir } as Config);
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test('TRUST_PROXY takes false, true, or a list of addresses, ranges and Express names', () => {
  const parse = (value: string) => loadConfig({ TRUST_PROXY: value }).TRUST_PROXY;
  expect(parse('false')).toBe(false);
  expect(parse('true')).toBe(true);
  expect(parse('10.0.0.5, 10.1.0.0/16,fd00::/8,loopback')).toEqual(['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'loopback']);
  for (const bad of ['yes', '10.0.0.0/33', 'proxy.internal', '0.0.0.0/0']) {
    expect(() => parse(bad)).toThrow(ConfigError);
    expect(() => parse(bad)).toThrow(/TRUST_PROXY .*e\.g\. 10\.0\.0\.5/);
  }
});

/** The service's listener around an app that answers what it believes about the request. */
async function serve(trust: TrustProxy) {
  const app = express();
  app.set('trust proxy', trust);
  app.use(responseHeaders, requireForwardedHttps(trust));
  app.get('/', (req, res) => res.json({ ip: req.ip, secure: req.secure }));
  app.use(((err, _req, res, _next) => res.status(err.status).json({ code: err.code })) as express.ErrorRequestHandler);
  const server = createServer(app, tls, trust);
  server.listener.listen(0, '127.0.0.1');
  await once(server.listener, 'listening');
  return { port: (server.listener.address() as AddressInfo).port, close: () => server.close(0) };
}

function get(port: number, headers: Record<string, string>, secure = false) {
  return new Promise<{ status: number; body: any; hsts?: string }>((resolve, reject) => {
    const client = secure ? https : http;
    client
      .get({ host: '127.0.0.1', port, path: '/', headers, rejectUnauthorized: false }, (r) => {
        let text = '';
        r.on('data', (c) => (text += c));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: JSON.parse(text), hsts: r.headers['strict-transport-security'] as string | undefined }));
      })
      .on('error', reject);
  });
}

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' };

test('a listed proxy may forward HTTPS and the client address', async () => {
  const service = await serve(['10.0.0.5', '127.0.0.1']);
  try {
    expect(await get(service.port, FORWARDED)).toEqual({ status: 200, body: { ip: '203.0.113.7', secure: true }, hsts: 'max-age=31536000' });
    expect((await get(service.port, { 'x-forwarded-proto': 'http' })).status).toBe(403);
  } finally {
    await service.close();
  }
});

test('a peer not on the list can claim neither, but its own TLS still counts', async () => {
  const service = await serve(['10.0.0.5']);
  try {
    const plain = await get(service.port, FORWARDED);
    expect(plain).toEqual({ status: 403, body: { code: 'HTTPS_REQUIRED' }, hsts: undefined });
    const direct = await get(service.port, FORWARDED, true);
    expect(direct).toEqual({ status: 200, body: { ip: '127.0.0.1', secure: true }, hsts: 'max-age=31536000' });
  } finally {
    await service.close();
  }
});
