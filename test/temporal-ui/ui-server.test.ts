// The Temporal UI server (docs/temporal-ui.md "Serving"): `npm start` prints its address and serves
// the cached build with the app's fallback and the embedded server's HTTP API on one origin; the
// pages shown while it builds and when the build fails. The real build and the browser are
// e2e/temporal-ui.e2e.ts's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sourcesHash, UI_SOURCES } from '../../temporal/ui-build';
import { startTemporalUi } from '../../temporal/ui-server';
import { eventually } from '../communications/helpers';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';

const INDEX = '<!doctype html><title>the app</title>';

/** A raw request: fetch would normalise the path and set its own Host and Origin. */
function request(url: string, opts: { method?: string; path: string; headers?: Record<string, string> }): Promise<{ status: number; type?: string; cache?: string; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], cache: res.headers['cache-control'], body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('npm start with the UI cached', () => {
  let dataDir: string;
  let service: ServiceProcess;
  let ui: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'temporal-ui-'));
    // What an earlier start's build left: the server serves it and builds nothing.
    const build = path.join(dataDir, 'temporal-ui', sourcesHash(UI_SOURCES));
    mkdirSync(path.join(build, '_app/immutable'), { recursive: true });
    writeFileSync(path.join(build, 'index.html'), INDEX);
    writeFileSync(path.join(build, '_app/immutable/start.abc.js'), 'export {};');
    const env = serviceEnv(dataDir, { TEMPORAL_UI_PORT: '0' });
    // The UI is the embedded server's (TEMPORAL_CLI's real server has its own): always embedded.
    delete env.TEMPORAL_ADDRESS;
    service = await startServiceProcess(env);
    ui = await eventually(async () => /Temporal UI: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(service.output())?.[1], 10_000, 'the UI address');
  });

  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the app: its files, and index.html for its own paths', async () => {
    expect(await request(ui, { path: '/' })).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', cache: 'no-cache', body: INDEX });
    expect(await request(ui, { path: '/namespaces/default/workflows/account-termination%3Ax/run/history' })).toMatchObject({ status: 200, body: INDEX });
    expect(await request(ui, { path: '/_app/immutable/start.abc.js' })).toMatchObject({
      status: 200, type: 'text/javascript; charset=utf-8', cache: 'public, max-age=31536000, immutable', body: 'export {};',
    });
    expect((await request(ui, { path: '/_app/immutable/gone.js' })).status).toBe(404);
    // Nothing outside the build: a path climbing out gets the app.
    expect(await request(ui, { path: '/%2e%2e/%2e%2e/credentials.json' })).toMatchObject({ status: 200, body: INDEX });
  });

  test('/api is the embedded server\'s HTTP API, on the same origin', async () => {
    const settings = await request(ui, { path: '/api/v1/settings' });
    expect(settings.status).toBe(200);
    expect(JSON.parse(settings.body)).toMatchObject({ DefaultNamespace: 'default', Auth: { Enabled: false } });
    const namespaces = await request(ui, { path: '/api/v1/namespaces' });
    expect(JSON.parse(namespaces.body).namespaces.map((n: { namespaceInfo: { name: string } }) => n.namespaceInfo.name)).toContain('default');
    const schedules = await request(ui, { path: '/api/v1/namespaces/default/schedules' });
    expect(JSON.parse(schedules.body).schedules.map((s: { scheduleId: string; info: { workflowType: { name: string } } }) => [s.scheduleId, s.info.workflowType.name]).sort()).toEqual([
      ['ledger-expiry', 'ledgerExpiryWorkflow'],
      ['retention', 'retentionWorkflow'],
    ]);
  });

  test('a write from another origin and a foreign Host are refused', async () => {
    const terminate = { method: 'POST', path: '/api/v1/namespaces/default/workflows/ledger-expiry/terminate' };
    expect((await request(ui, { ...terminate, headers: { Origin: 'http://evil.test' } })).status).toBe(403);
    expect((await request(ui, { path: '/', headers: { Host: 'evil.test' } })).status).toBe(403);
    // The UI's own origin may write (here: terminate an unknown run, which the server answers).
    const own = await request(ui, { ...terminate, path: terminate.path.replace('ledger-expiry', 'no-such-workflow'), headers: { Origin: ui } });
    expect(own.status).toBe(404);
  });
});

describe('before and without a build', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-ui-fail-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('says it is building, then why the build failed; the API is served meanwhile', async () => {
    const logged: string[] = [];
    const ui = await startTemporalUi({
      host: '127.0.0.1', port: 0, apiAddress: '127.0.0.1:1', cacheDir: path.join(dir, 'cache'), log: (_l, msg) => logged.push(msg),
      // vite cannot run: node is told to preload a module that does not exist.
      buildEnv: { ...process.env, NODE_OPTIONS: `--require=${path.join(dir, 'missing.js')}` },
    });
    try {
      const building = await request(ui.url, { path: '/namespaces/default/workflows' });
      expect(building).toMatchObject({ status: 503, body: expect.stringContaining('Building the Temporal UI') });
      await expect(ui.ready).rejects.toThrow(/vite build failed/);
      const failed = await request(ui.url, { path: '/' });
      expect(failed).toMatchObject({ status: 500, body: expect.stringContaining('vite build failed') });
      expect(logged.filter((m) => m.includes('could not be built'))).toHaveLength(1);
      // The API is passed on whatever the app's state: here nobody listens behind it.
      expect((await request(ui.url, { path: '/api/v1/namespaces' })).status).toBe(503);
    } finally {
      await ui.close();
    }
  });
});
