import { createHash, randomUUID } from 'node:crypto';
import { openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

describe('Idempotency-Key', () => {
  it('replays the first response without a second effect', async () => {
    const headers = { 'idempotency-key': `k-${Date.now()}` };
    const first = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'once' }, headers });
    const again = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'once' }, headers });
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The secret is shown once: never stored for replays.
    expect(again.body.key).toBeNull();
    const list = await api('GET', '/api_keys?size=100', { key: tenant.secretKey });
    expect(list.body.content.filter((k: { name: string }) => k.name === 'once')).toHaveLength(1);
  });

  it('replays a refusal exactly as it was answered, its request_id included', async () => {
    const headers = { 'idempotency-key': `k4-${Date.now()}` };
    // A refusal of the operation itself (validation comes before the key is claimed): no such contact.
    const path = `/contacts/${randomUUID()}/accounts`;
    const first = await api('POST', path, { key: tenant.secretKey, body: { name: 'Savings' }, headers });
    const again = await api('POST', path, { key: tenant.secretKey, body: { name: 'Savings' }, headers });
    expect([first.status, first.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(first.body.request_id).toBe(first.headers['x-request-id']);
    expect([again.status, again.headers['idempotent-replayed']]).toEqual([404, 'true']);
    expect(again.body).toEqual(first.body);
    // The replay is a request of its own: its header names it, the body the request answered.
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('answers 409 when the key is reused with another body', async () => {
    const headers = { 'idempotency-key': `k2-${Date.now()}` };
    await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'first' }, headers });
    const res = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'second' }, headers });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('keeps no plain hash of a body that holds a password', async () => {
    const key = `k3-${Date.now()}`;
    const body = { username: `idem-${Date.now()}`, password: 'correct horse battery', scopes: ['contacts:read'] };
    const made = await api('POST', '/users', { key: tenant.secretKey, body, headers: { 'idempotency-key': key } });
    expect(made.status).toBe(200);
    const db = openDatabase();
    try {
      const [row] = await db.$queryRaw<Array<{ request_hash: string }>>`SELECT request_hash FROM idempotency_records WHERE key = ${key}`;
      const plain = createHash('sha256').update(`POST /backoffice/v1/users\n${JSON.stringify(body)}`).digest('hex');
      expect(row.request_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.request_hash).not.toBe(plain);
    } finally {
      await db.$disconnect();
    }
  });

  it('does not apply to requests without the header', async () => {
    const one = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'twice' } });
    const two = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'twice' } });
    expect(one.body.id).not.toBe(two.body.id);
  });
});

describe('rate limit', () => {
  it('answers 429 with Retry-After once a key exceeds its rate', async () => {
    const limited = (await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'slow', rate_limit_per_second: 2 } })).body;
    const results = await Promise.all(Array.from({ length: 8 }, () => api('GET', '/api_keys', { key: limited.key })));
    const refused = results.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    expect(Number(refused[0].headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused[0].body.code).toBe('RATE_LIMITED');
  });
});
