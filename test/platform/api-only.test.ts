// At scale the API runs in processes of its own (RUN_WORKER=false) and workers elsewhere
// (issue 23 part 4): such a process loads none of the SDK's worker, neither its native core nor
// the webpack that bundles workflows, and still serves and starts workflows through the client.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { serviceEnv, startServiceProcess } from '../support/service-process';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-api-only-'));
const loaded = path.join(dataDir, 'loaded-packages.txt');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test('a service with RUN_WORKER=false answers without loading the worker', async () => {
  const env = serviceEnv(dataDir, { RUN_WORKER: 'false', LOADED_PACKAGES_FILE: loaded });
  env.NODE_OPTIONS = `--require ${path.join(__dirname, 'fixtures/loaded-packages.cjs')}`;
  const service = await startServiceProcess(env);
  try {
    const ca = serviceCa(dataDir);
    expect((await api('GET', '/health', { baseUrl: service.url, ca })).status).toBe(200);
  } finally {
    expect(await service.stop('SIGTERM')).toBe(0);
  }
  const packages = readFileSync(loaded, 'utf8').split('\n');
  // What the API needs: the workflow client.
  expect(packages).toContain('@temporalio/client');
  expect(packages).toContain('express');
  expect(packages).not.toContain('@temporalio/worker');
  expect(packages).not.toContain('@temporalio/core-bridge');
  expect(packages).not.toContain('webpack');
  // Loaded by the first PDF report, not at start (src/domain/reports/pdf.ts).
  expect(packages).not.toContain('pdfkit');
}, 180_000);
