import http from 'node:http';
import tls from 'node:tls';
import { api, serviceCa } from '../support/api';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

describe('transport', () => {
  it('refuses plain HTTP on the HTTPS port before any handler', async () => {
    const url = new URL(testState().url.replace('https:', 'http:') + '/api_keys');
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      http
        .get(url, { headers: { api_key: tenant.secretKey } }, (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe('HTTPS_REQUIRED');
  });

  it('echoes a caller request id and mints one otherwise', async () => {
    const echoed = await api('GET', '/api_keys', { key: tenant.secretKey, headers: { 'x-request-id': 'trace-123' } });
    expect(echoed.headers['x-request-id']).toBe('trace-123');
    const minted = await api('GET', '/api_keys', { key: tenant.secretKey });
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await api('GET', '/api_keys', { headers: { 'x-request-id': 'trace-456' } });
    expect(failed.body.request_id).toBe('trace-456');
  });

  it('answers 405 with Allow for a method the path does not have, 404 for an unknown path', async () => {
    const wrong = await api('DELETE', '/contacts', { key: tenant.secretKey });
    expect(wrong.status).toBe(405);
    expect(wrong.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(wrong.headers.allow).toBe('POST, PUT, GET');
    const unknown = await api('GET', '/no_such_thing', { key: tenant.secretKey });
    expect(unknown.status).toBe(404);
    const malformed = await api('GET', '/contacts/%E0%A4%A', { key: tenant.secretKey });
    expect(malformed.status).toBe(400);
    expect(malformed.body.attribute).toBe('id');
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await api('POST', '/api_keys', { key: tenant.secretKey, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 400 (never 500) for malformed JSON', async () => {
    const res = await api('POST', '/api_keys', { key: tenant.secretKey, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', message: 'Malformed JSON body' });
  });

  it('answers 413 for a body over 1 MiB', async () => {
    const rawBody = JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) });
    const res = await api('POST', '/api_keys', { key: tenant.secretKey, rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers unknown operations with the JSON error body', async () => {
    const res = await api('GET', '/no_such_thing', { key: tenant.secretKey });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'NOT_FOUND' });
    expect(typeof res.body.request_id).toBe('string');
  });

  it('names the offending field of an invalid body and unknown fields', async () => {
    const missing = await api('POST', '/api_keys', { key: tenant.secretKey, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body.attribute).toBe('name');
    const unknown = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'k', colour: 'red' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.attribute).toBe('colour');
  });

  it('reports health without a credential, its checks only to a credential', async () => {
    const res = await api('GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'UP' });
    const detailed = await api('GET', '/health', { key: tenant.secretKey });
    expect(detailed.body).toEqual({ status: 'UP', checks: { database: { ok: true }, temporal: { ok: true } } });
  });
});

describe('a request head Node cannot take', () => {
  /** Raw bytes over TLS: an oversized head never reaches the app, so no client library shapes it. */
  const raw = (head: string) =>
    new Promise<{ status: number; headers: Record<string, string>; body: string }>((resolve, reject) => {
      const url = new URL(testState().url);
      const socket = tls.connect({ host: url.hostname, port: Number(url.port), ca: serviceCa(), servername: 'localhost' }, () => socket.end(head));
      let text = '';
      socket.on('data', (c) => (text += c));
      socket.on('error', reject);
      socket.on('close', () => {
        const [top, body = ''] = text.split('\r\n\r\n');
        const [statusLine, ...lines] = top.split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      });
    });

  it('answers a URL over 64 KiB 431 HEADERS_TOO_LARGE with the error body and X-Request-Id', async () => {
    const res = await raw(`GET /backoffice/v1/contacts?search_value=${'a'.repeat(70_000)} HTTP/1.1\r\nHost: localhost\r\napi_key: ${tenant.secretKey}\r\n\r\n`);
    expect(res.status).toBe(431);
    const body = JSON.parse(res.body);
    expect(body.code).toBe('HEADERS_TOO_LARGE');
    expect(body.request_id).toBe(res.headers['x-request-id']);
  });

  it('takes a head under the limit, which the preview body parameter is sized to fit', async () => {
    const query = encodeURIComponent(JSON.stringify({ filter_set: [], padding: 'x'.repeat(15_900) }));
    expect(query.length).toBeLessThan(64 * 1024 - 1024);
    const res = await api('GET', `/reports/contacts/preview?body=${query}`, { key: tenant.secretKey });
    // Parsed and validated by the operation (the padding is an unknown field): the app's own 400, not the parser's.
    expect([res.status, res.body.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  });

  it('answers a malformed request line 400 with the error body', async () => {
    const res = await raw('GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: nope\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).code).toBe('INVALID_REQUEST');
  });
});
