// Response headers (issue 20 part 6): answers carrying tokens, keys and secrets (and every other
// API answer: all of them are personal data) are `Cache-Control: no-store`; every HTTPS answer
// carries HSTS, the plain-HTTP refusal none.
import http from 'node:http';
import { api, type ApiResponse } from '../support/api';
import { testState } from '../support/state';
import { createTenant, type Tenant } from '../support/tenants';

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

function expectPrivate(res: ApiResponse, what: string) {
  expect({ what, cache: res.headers['cache-control'], hsts: res.headers['strict-transport-security'] }).toEqual({
    what, cache: 'no-store', hsts: 'max-age=31536000',
  });
}

test('secrets and tokens are never stored by a cache', async () => {
  const login = await api('POST', '/users/login', { body: tenant.admin });
  expect(login.status).toBe(200);
  expectPrivate(login, 'login');
  const refresh = await api('POST', '/users/refresh', { body: { refresh_token: login.body.refresh_token } });
  expect(refresh.status).toBe(200);
  expectPrivate(refresh, 'refresh');
  const key = await api('POST', '/api_keys', { key: tenant.secretKey, body: { name: 'headers', type: 'SECRET' } });
  expect(key.status).toBe(200);
  expectPrivate(key, 'api key');
  const webhook = await api('POST', '/webhooks', { key: tenant.secretKey, body: { name: 'h', method: 'POST', url_endpoint: 'https://hooks.example.com/h' } });
  expect(webhook.status).toBe(200);
  expect(webhook.body.secret_key).toEqual(expect.any(String));
  expectPrivate(webhook, 'webhook create');
  expectPrivate(await api('GET', `/webhooks/${webhook.body.id}`, { key: tenant.secretKey }), 'webhook read');
  expectPrivate(await api('POST', `/webhooks/${webhook.body.id}/rotate_secret`, { key: tenant.secretKey, body: {} }), 'webhook rotate');
});

test('every other answer too, errors included', async () => {
  expectPrivate(await api('GET', '/api_keys', { key: tenant.secretKey }), 'list');
  expectPrivate(await api('GET', '/api_keys'), '401');
  expectPrivate(await api('GET', '/no_such_thing', { key: tenant.secretKey }), '404');
  expectPrivate(await api('POST', '/users/login', { body: { username: 'x' } }), '400');
  expectPrivate(await api('GET', '/health'), 'health');
});

test('the reference page keeps working, its static files cacheable', async () => {
  const page = await api('GET', '/docs');
  expect(page.status).toBe(200);
  expect(page.text).toContain('swagger-ui');
  const css = await api('GET', '/docs/swagger-ui.css');
  expect(css.status).toBe(200);
  expect(css.headers['cache-control']).toBe('public, max-age=3600');
  expect(css.headers['strict-transport-security']).toBe('max-age=31536000');
  const document = await api('GET', '/openapi.json');
  expect(document.headers['cache-control']).toBe('no-cache');
});

test('the plain-HTTP refusal carries no HSTS (a browser would ignore it there)', async () => {
  const headers = await new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
    http.get(testState().url.replace('https:', 'http:') + '/health', (r) => (r.resume(), resolve(r.headers))).on('error', reject);
  });
  expect(headers['strict-transport-security']).toBeUndefined();
});
