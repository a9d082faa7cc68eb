import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTemporalCliServer } from '../cli-server';
import type { RealServer } from './global-teardown';

/**
 * With TEMPORAL_CLI (a `temporal` binary) the suite runs on a real Temporal server: the CLI's dev
 * server, started here on free loopback ports with its state in a temporary directory. It is the
 * suite's own even when the repository's `npm test` starts another for the service's tests (which
 * it names in TEMPORAL_ADDRESS), so its address reaches the tests as CONFORMANCE_TEMPORAL_ADDRESS
 * (helpers.ts).
 */
export default async function globalSetup(): Promise<void> {
  const bin = process.env.TEMPORAL_CLI;
  if (!bin) {
    const on = process.env.TEMPORAL_ADDRESS ? `the server at TEMPORAL_ADDRESS (${process.env.TEMPORAL_ADDRESS})` : 'the embedded server (TEMPORAL_CLI unset)';
    process.stdout.write(`\nconformance suite on ${on}\n`);
    return;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const server = await startTemporalCliServer({ bin, dbFile: path.join(dir, 'temporal-cli.db'), host: '127.0.0.1', port: 0 });
  (globalThis as RealServer).__conformanceServer = { server, dir };
  process.env.CONFORMANCE_TEMPORAL_ADDRESS = server.address;
  process.stdout.write(`\nconformance suite on a real Temporal server (${bin} server start-dev) at ${server.address}\n`);
}
