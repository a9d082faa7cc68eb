// Pieces of the telemetry tests (test/platform/prometheus.test.ts, traces.test.ts).
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { DatabaseInfo } from '../../src/db/embedded';
import type { ServiceProcess } from './service-process';

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
export function databaseUrlOf(dataDir: string, own: string | undefined): string {
  return own ?? (JSON.parse(readFileSync(path.join(dataDir, 'database.json'), 'utf8')) as DatabaseInfo).url;
}
