// The Temporal UI server (docs/temporal-ui.md "Serving"): `npm start` prints its address and serves
// the cached build with the app's fallback and the embedded server's HTTP API on one origin; the
// pages shown while it builds and when the build fails. The real build and the browser are
// e2e/temporal-ui.e2e.ts's.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startTemporalUi, uiBuildDir } from '@backoffice/temporal-server';
import { eventually } from '../communications/helpers';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';

const INDEX = '<!doctype html><title>the app</title>';

type Answer = { status: number; type?: string; cache?: string; location?: string; cookie?: string; body: string };

/** A raw request: fetch would normalise the path and set its own Host and Origin. */
function request(url: string, opts: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, method: opts.method ?? 'GET', path: opts.path, headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({
        status: res.statusCode!, type: res.headers['content-type'], cache: res.headers['cache-control'], location: res.headers.location,
        cookie: res.headers['set-cookie']?.[0], body,
      }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The sign-in form posted with `key`. */
function signIn(url: string, key: string, next = '/'): Promise<Answer> {
  const body = new URLSearchParams({ key, next }).toString();
  return request(url, { method: 'POST', path: '/_signin', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(Buffer.byteLength(body)) }, body });
}

/** The session cookie a right key gets. */
async function session(url: string, key: string): Promise<Record<string, string>> {
  const answer = await signIn(url, key);
  expect(answer).toMatchObject({ status: 303, location: '/' });
  return { Cookie: answer.cookie!.split(';')[0] };
}

describe('npm start with the UI cached', () => {
  let dataDir: string;
  let service: ServiceProcess;
  let ui: string;
  let signedIn: Record<string, string>;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'temporal-ui-'));
    // What an earlier start's build left: the server serves it and builds nothing.
    const build = uiBuildDir(path.join(dataDir, 'temporal-ui'));
    mkdirSync(path.join(build, '_app/immutable'), { recursive: true });
    writeFileSync(path.join(build, 'index.html'), INDEX);
    writeFileSync(path.join(build, '_app/immutable/start.abc.js'), 'export {};');
    const env = serviceEnv(dataDir, { TEMPORAL_UI_PORT: '0' });
    // The UI is the embedded server's (TEMPORAL_CLI's real server has its own): always embedded.
    delete env.TEMPORAL_ADDRESS;
    service = await startServiceProcess(env);
    ui = await eventually(async () => /Temporal UI: (http:\/\/127\.0\.0\.1:\d+)\n/.exec(service.output())?.[1], 10_000, 'the UI address');
    signedIn = await session(ui, readFileSync(path.join(dataDir, 'temporal-api-key'), 'utf8').trim());
  });

  afterAll(async () => {
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('the app: its files, and index.html for its own paths', async () => {
    expect(await request(ui, { path: '/', headers: signedIn })).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', cache: 'no-cache', body: INDEX });
    expect(await request(ui, { path: '/namespaces/default/workflows/account-termination%3Ax/run/history', headers: signedIn })).toMatchObject({ status: 200, body: INDEX });
    expect(await request(ui, { path: '/_app/immutable/start.abc.js', headers: signedIn })).toMatchObject({
      status: 200, type: 'text/javascript; charset=utf-8', cache: 'public, max-age=31536000, immutable', body: 'export {};',
    });
    expect((await request(ui, { path: '/_app/immutable/gone.js', headers: signedIn })).status).toBe(404);
    // Nothing outside the build: a path climbing out gets the app.
    expect(await request(ui, { path: '/%2e%2e/%2e%2e/credentials.json', headers: signedIn })).toMatchObject({ status: 200, body: INDEX });
  });

  test('/api is the embedded server\'s HTTP API, on the same origin', async () => {
    const settings = await request(ui, { path: '/api/v1/settings', headers: signedIn });
    expect(settings.status).toBe(200);
    expect(JSON.parse(settings.body)).toMatchObject({ DefaultNamespace: 'default', Auth: { Enabled: false } });
    const namespaces = await request(ui, { path: '/api/v1/namespaces', headers: signedIn });
    expect(JSON.parse(namespaces.body).namespaces.map((n: { namespaceInfo: { name: string } }) => n.namespaceInfo.name)).toContain('default');
    const schedules = await request(ui, { path: '/api/v1/namespaces/default/schedules', headers: signedIn });
    expect(JSON.parse(schedules.body).schedules.map((s: { scheduleId: string; info: { workflowType: { name: string } } }) => [s.scheduleId, s.info.workflowType.name]).sort()).toEqual([
      ['ledger-expiry', 'ledgerExpiryWorkflow'],
      ['retention', 'retentionWorkflow'],
    ]);
  });

  test('the door: without signing in, the sign-in page and 401 for /api; the key is in the data directory, 0600', async () => {
    const keyFile = path.join(dataDir, 'temporal-api-key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(service.output()).toContain(`API key in ${keyFile}`);
    expect(service.output()).not.toContain(readFileSync(keyFile, 'utf8').trim());
    const page = await request(ui, { path: '/namespaces/default/workflows' });
    expect(page).toMatchObject({ status: 401, body: expect.stringContaining('Sign in to the Temporal UI') });
    const api = await request(ui, { path: '/api/v1/namespaces/default/workflows' });
    expect([api.status, JSON.parse(api.body).code]).toEqual([401, 16]);
    const terminate = await request(ui, { method: 'POST', path: '/api/v1/namespaces/default/workflows/ledger-expiry/terminate' });
    expect(terminate.status).toBe(401);
    // A wrong key, a forged cookie: still outside.
    expect(await signIn(ui, 'not-the-key')).toMatchObject({ status: 401, body: expect.stringContaining('not the key') });
    expect((await request(ui, { path: '/api/v1/namespaces', headers: { Cookie: 'temporal_ui_session=forged' } })).status).toBe(401);
    // The right key: back to where the browser was going, never to another site.
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(await signIn(ui, key, '/namespaces/default/workflows')).toMatchObject({ status: 303, location: '/namespaces/default/workflows', cookie: expect.stringMatching(/HttpOnly; SameSite=Strict/) });
    expect(await signIn(ui, key, '//evil.test/x')).toMatchObject({ status: 303, location: '/' });
  });

  test('a write from another origin and a foreign Host are refused', async () => {
    const terminate = { method: 'POST', path: '/api/v1/namespaces/default/workflows/ledger-expiry/terminate' };
    expect((await request(ui, { ...terminate, headers: { ...signedIn, Origin: 'http://evil.test' } })).status).toBe(403);
    expect((await request(ui, { path: '/', headers: { ...signedIn, Host: 'evil.test' } })).status).toBe(403);
    // The UI's own origin may write (here: terminate an unknown run, which the server answers).
    const own = await request(ui, { ...terminate, path: terminate.path.replace('ledger-expiry', 'no-such-workflow'), headers: { ...signedIn, Origin: ui } });
    expect(own.status).toBe(404);
  });
});

describe('before and without a build', () => {
  const KEY = 'a-test-key-of-at-least-thirty-two-characters';
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'temporal-ui-fail-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('says it is building, then why the build failed; the API is served meanwhile', async () => {
    const logged: string[] = [];
    const ui = await startTemporalUi({
      host: '127.0.0.1', port: 0, apiAddress: '127.0.0.1:1', apiKey: KEY, cacheDir: path.join(dir, 'cache'), log: (_l, msg) => logged.push(msg),
      // vite cannot run: node is told to preload a module that does not exist.
      buildEnv: { ...process.env, NODE_OPTIONS: `--require=${path.join(dir, 'missing.js')}` },
    });
    try {
      const signedIn = await session(ui.url, KEY);
      const building = await request(ui.url, { path: '/namespaces/default/workflows', headers: signedIn });
      expect(building).toMatchObject({ status: 503, body: expect.stringContaining('Building the Temporal UI') });
      await expect(ui.ready).rejects.toThrow(/vite build failed/);
      const failed = await request(ui.url, { path: '/', headers: signedIn });
      expect(failed).toMatchObject({ status: 500, body: expect.stringContaining('vite build failed') });
      expect(logged.filter((m) => m.includes('could not be built'))).toHaveLength(1);
      // The API is passed on whatever the app's state: here nobody listens behind it.
      expect((await request(ui.url, { path: '/api/v1/namespaces', headers: signedIn })).status).toBe(503);
    } finally {
      await ui.close();
    }
  });
});
