import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceEnv, startServiceProcess, type ServiceProcess } from './service-process';
import { startTemporalCli, type TemporalCli } from './temporal-cli';

/**
 * One running service for the whole `api` project: every test file talks HTTPS to it and
 * works in organisations of its own (test/support/tenants.ts). With TEMPORAL_CLI (a `temporal`
 * binary) it runs on a real Temporal dev server instead of the embedded one, and so does every
 * service a test starts of its own (TEMPORAL_ADDRESS is inherited: service-process.ts).
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-test-'));
  const g = globalThis as { __service?: ServiceProcess; __temporal?: TemporalCli };
  const cli = process.env.TEMPORAL_CLI;
  if (cli) {
    g.__temporal = await startTemporalCli(cli, dataDir);
    process.env.TEMPORAL_ADDRESS = g.__temporal.address;
    process.stdout.write(`\napi tests on a real Temporal server (${cli} server start-dev) at ${g.__temporal.address}\n`);
  } else {
    process.stdout.write('\napi tests on the embedded Temporal server (TEMPORAL_CLI unset: no real-Temporal pass)\n');
  }
  try {
    // The tests reach the shared service's workflows on the default task queue.
    g.__service = await startServiceProcess(serviceEnv(dataDir, { OUTBOX_DISPATCHER: 'true', TEMPORAL_TASK_QUEUE: 'backoffice' }));
  } catch (err) {
    if (g.__temporal) process.stderr.write(`temporal server output:\n${g.__temporal.output().slice(-4000)}\n`);
    await g.__temporal?.stop();
    throw err;
  }
  const stateFile = path.join(dataDir, 'test-state.json');
  writeFileSync(stateFile, JSON.stringify({ url: g.__service.url, temporalAddress: g.__service.temporalAddress, dataDir }));
  process.env.BACKOFFICE_TEST_STATE = stateFile;
}
