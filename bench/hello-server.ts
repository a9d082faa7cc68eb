// The ceiling (child process of bench/contacts.ts): bare node:https answering a small JSON body,
// with a certificate made exactly like the service's own (src/tls.ts), so the ratio
// service/ceiling measures what the framework, auth and database add on top of TLS + HTTP.
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config';
import { loadTls } from '../src/tls';
import { RssSampler } from './rss';

const rss = new RssSampler();

async function main() {
  const tls = await loadTls(loadConfig({ DATA_DIR: process.env.DATA_DIR }));
  const body = JSON.stringify({ status: 'ok' });
  const server = https.createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 65_000 }, (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.send?.({ url: `https://localhost:${port}` });
  });
  // CPU time per request is comparable across runs even when other processes share the CPUs;
  // RSS as every server child reports it (bench/rss.ts).
  process.on('message', () => {
    const cpu = process.cpuUsage();
    process.send?.({ reply: { cpuMicros: cpu.user + cpu.system, ...rss.report() } });
  });
  process.on('SIGTERM', () => process.exit(0));
}

main().catch((err) => {
  process.stderr.write(`hello server failed: ${String(err)}\n`);
  process.exit(1);
});
