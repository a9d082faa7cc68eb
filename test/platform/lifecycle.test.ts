import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../support/api';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../support/service-process';
import { createTenant } from '../support/tenants';

/** A service of its own (not the shared one), to stop and start. */
describe('service life cycle', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-lifecycle-'));
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps data and credentials across a restart, and locks its data directory', async () => {
    service = await startServiceProcess(serviceEnv(dataDir));
    const credentialsFile = path.join(dataDir, 'credentials.json');
    // On PostgreSQL the shared test database was bootstrapped by the first service already.
    const key = process.env.DATABASE_URL
      ? (await createTenant('lifecycle', dataDir)).secretKey
      : (JSON.parse(readFileSync(credentialsFile, 'utf8')) as { secret_api_key: string }).secret_api_key;
    if (!process.env.DATABASE_URL) expect(statSync(credentialsFile).mode & 0o777).toBe(0o600);
    const ca = serviceCa(dataDir);
    const created = await api('POST', '/api_keys', { baseUrl: service.url, ca, key, body: { name: 'survivor' } });
    expect(created.status).toBe(200);
    const credentialsBefore = existsSync(credentialsFile) ? readFileSync(credentialsFile, 'utf8') : '';

    if (!process.env.DATABASE_URL) {
      await expect(startServiceProcess(serviceEnv(dataDir), 60_000)).rejects.toThrow(/lock|in use|held/i);
    }

    expect(await service.stop('SIGTERM')).toBe(0);
    service = await startServiceProcess(serviceEnv(dataDir));
    const list = await api('GET', '/api_keys?size=100', { baseUrl: service.url, ca: serviceCa(dataDir), key });
    expect(list.status).toBe(200);
    expect(list.body.content.map((k: { id: string }) => k.id)).toContain(created.body.id);
    expect(existsSync(credentialsFile) ? readFileSync(credentialsFile, 'utf8') : '').toBe(credentialsBefore);
    expect(service.output()).not.toMatch(/First start/);
  }, 180_000); // three starts of a whole service, one of them waiting for the lock

  it('finishes an in-flight request on SIGTERM, then exits', async () => {
    if (!service) throw new Error('previous test did not start the service');
    const running = service;
    const body = JSON.stringify({ username: 'nobody', password: 'in-flight' });
    const url = new URL(running.url + '/users/login');
    const response = new Promise<number>((resolve, reject) => {
      const req = https.request(
        url,
        { method: 'POST', ca: serviceCa(dataDir), headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      // Half the body now: the request is in flight when the signal arrives.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        running.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 200);
    });
    expect(await response).toBe(401);
    expect(await running.stop()).toBe(0);
    service = undefined;
  });
});

/** Behind a TLS-terminating proxy the service trusts X-Forwarded-Proto instead of the socket. */
describe('TRUST_PROXY', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-proxy-'));
  let service: ServiceProcess | undefined;
  afterAll(async () => {
    await service?.stop('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves plain HTTP from the proxy only when it forwarded HTTPS', async () => {
    // The test's own requests come from 127.0.0.1: the proxy, named as operators should.
    service = await startServiceProcess(serviceEnv(dataDir, { TRUST_PROXY: 'loopback' }));
    const plain = service.url.replace('https:', 'http:');
    const get = (proto?: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(`${plain}/health`, { headers: proto ? { 'x-forwarded-proto': proto } : {} }, (r) => {
            let body = '';
            r.on('data', (c) => (body += c));
            r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
          })
          .on('error', reject);
      });
    const refused = await get('http');
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body).code).toBe('HTTPS_REQUIRED');
    expect((await get()).status).toBe(403);
    expect((await get('https')).status).toBe(200);
  });
});
