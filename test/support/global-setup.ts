import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceEnv, startServiceProcess, type ServiceProcess } from './service-process';

/**
 * One running service for the whole `api` project: every test file talks HTTPS to it and
 * works in organisations of its own (test/support/tenants.ts).
 */
export default async function globalSetup() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-test-'));
  const service = await startServiceProcess(serviceEnv(dataDir, { OUTBOX_DISPATCHER: 'true' }));
  const stateFile = path.join(dataDir, 'test-state.json');
  writeFileSync(stateFile, JSON.stringify({ url: service.url, temporalAddress: service.temporalAddress, dataDir }));
  process.env.BACKOFFICE_TEST_STATE = stateFile;
  (globalThis as { __service?: ServiceProcess }).__service = service;
}
