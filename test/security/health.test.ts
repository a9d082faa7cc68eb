// GET /health (issue 20 part 6): up or down to anyone; which check failed, and a fixed reason,
// only to a secret key or a user; a driver's error text (hosts, users, a DSN) only to the log.
import type { AppDeps } from '../../src/api/deps';
import { healthRoutes } from '../../src/api/health/routes';
import type { RequestContext } from '../../src/api/route';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

const CHECKS = { database: { ok: true }, temporal: { ok: true } };

test('without a credential, or with a public key: up, nothing more', async () => {
  for (const key of [undefined, tenant.publicKey]) {
    const res = await api('GET', '/health', { key });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { status: 'UP' } });
  }
});

test('a secret key or a user token gets the checks; a bad credential is 401', async () => {
  expect((await api('GET', '/health', { key: tenant.secretKey })).body).toEqual({ status: 'UP', checks: CHECKS });
  const login = await api('POST', '/users/login', { body: tenant.admin });
  expect((await api('GET', '/health', { token: login.body.access_token })).body).toEqual({ status: 'UP', checks: CHECKS });
  expect((await api('GET', '/health', { key: 'sk_not-a-key' })).status).toBe(401);
});

describe('a failing check', () => {
  // The text a driver really answers with can carry the DSN; it must never reach a client.
  const detail = 'connect ECONNREFUSED 10.20.30.40:5432 postgres://backoffice:hunter2@db.internal.example/backoffice';
  const logged: unknown[] = [];
  const deps = {
    health: async () => ({ database: { ok: false, detail }, temporal: { ok: false, detail: '4 DEADLINE_EXCEEDED: Deadline exceeded' } }),
    log: { warn: (entry: unknown) => logged.push(entry) },
  } as unknown as AppDeps;
  const [health] = healthRoutes(deps);
  const answer = async (kind: 'SECRET' | 'PUBLIC') => {
    const ctx = { actor: { type: 'api_key', id: 'k', kind, scopes: [], isAdmin: false }, requestId: 'r-1' } as unknown as RequestContext;
    try {
      await health.handler({ ctx, params: undefined, query: undefined, body: undefined, prepared: undefined });
    } catch (err) {
      return err as { status: number; code: string; message: string };
    }
    throw new Error('expected 503');
  };

  test('is 503 saying only "unavailable" to anyone', async () => {
    expect(await answer('PUBLIC')).toMatchObject({ status: 503, code: 'UNAVAILABLE', message: 'The service is unavailable' });
  });

  test('is named with a fixed reason to a secret credential, its text only logged', async () => {
    const err = await answer('SECRET');
    expect(err).toMatchObject({ status: 503, message: 'Unavailable: database (unreachable), temporal (timeout)' });
    expect(JSON.stringify({ ...err, message: err.message })).not.toMatch(/hunter2|db\.internal|10\.20\.30\.40/);
    expect(logged).toContainEqual(expect.objectContaining({ check: 'database', detail, requestId: 'r-1' }));
  });
});
