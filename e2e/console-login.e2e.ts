// The console's login, shell and security headers in headless Chromium (docs/console.md).
import https from 'node:https';
import { api, serviceCa } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { consoleUrl, ensureConsoleBuilt, logIn, openConsole, screenshot, type Watched } from './console-support';

describe('console: login and shell', () => {
  let tenant: Tenant;
  let w: Watched;

  beforeAll(async () => {
    ensureConsoleBuilt();
    tenant = await createTenant('Console login');
    w = await openConsole();
  });

  afterAll(async () => {
    await w?.browser.close();
  });

  it('serves the app with a strict CSP, no framing and a fresh nonce; deep links get the app too', async () => {
    const first = await fetchPage('/automations/some/deep/link');
    const second = await fetchPage('');
    for (const res of [first, second]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      for (const d of ["script-src 'self'", "connect-src 'self'", "frame-ancestors 'none'", "object-src 'none'", "base-uri 'self'"]) expect(csp).toContain(d);
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    }
    const nonce = (csp: string | undefined) => /'nonce-([^']+)'/.exec(csp ?? '')?.[1];
    expect(nonce(first.headers.get('content-security-policy'))).toBeTruthy();
    expect(nonce(first.headers.get('content-security-policy'))).not.toBe(nonce(second.headers.get('content-security-policy')));
    expect(first.body).toContain(`nonce="${nonce(first.headers.get('content-security-policy'))}"`);
    // Hashed assets are cached for good; an unknown one is 404, not the app.
    const asset = /src="(\/console\/assets\/[^"]+\.js)"/.exec(first.body)![1];
    const assetRes = await fetchPath(asset);
    expect(assetRes.status).toBe(200);
    expect(assetRes.headers.get('cache-control')).toContain('immutable');
    expect((await fetchPath('/console/assets/missing-0000.js')).status).toBe(404);
  });

  it('shows the API\'s message for a wrong password', async () => {
    const expected = (await api('POST', '/users/login', { body: { username: tenant.admin.username, password: 'not the password' } })).body.message;
    expect(expected).toBeTruthy();
    await w.page.goto(consoleUrl('/automations'));
    await logIn(w.page, tenant.admin.username, 'still not the password');
    await w.page.getByTestId('login-error').waitFor();
    expect(await w.page.getByTestId('login-error').innerText()).toContain(expected);
    await screenshot(w.page, '01-login-wrong-password');
    // The one expected complaint: Chromium logs the 401 of the refused login.
    expect(w.problems.every((p) => p.includes('status of 401'))).toBe(true);
    w.problems.length = 0;
  });

  it('logs in, comes back to the page asked for, shows the user and organisation by name, and keeps no token in storage', async () => {
    await logIn(w.page, tenant.admin.username, tenant.admin.password);
    await w.page.getByRole('heading', { name: 'Automations' }).waitFor();
    expect(new URL(w.page.url()).pathname).toBe('/console/automations');
    // GET /users/me names them: the organisation's name, the user's name (the admin has none: the username).
    await w.page.getByTestId('current-organisation').getByText('Console login', { exact: true }).waitFor();
    expect(await w.page.getByTestId('current-user').innerText()).toBe(`${tenant.admin.username} (admin)`);
    await screenshot(w.page, '02-automations-empty');
    // A string: the function runs in the page, where these globals exist (this project's types have no DOM).
    const stored = await w.page.evaluate<string>('JSON.stringify({ l: { ...localStorage }, s: { ...sessionStorage }, c: document.cookie })');
    expect(stored).not.toMatch(/eyJ|rt_/);
    expect((await w.page.context().cookies()).length).toBe(0);
  });

  it('navigates by keyboard', async () => {
    // A section of this file's own (the automations' inbox): the others' pages come and go in their own tests.
    const nav = w.page.getByRole('navigation', { name: 'Sections' });
    await nav.getByRole('link', { name: 'Approvals' }).focus();
    await w.page.keyboard.press('Enter');
    await w.page.getByRole('heading', { name: 'Approvals', exact: true }).waitFor();
    expect(new URL(w.page.url()).pathname).toBe('/console/approvals');
  });

  it('works at tablet width (navigation beside the page, nothing wider than the screen) and below it (a menu button)', async () => {
    await w.page.setViewportSize({ width: 768, height: 1024 });
    await w.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
    await w.page.getByRole('heading', { name: 'Automations' }).waitFor();
    expect(await w.page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(768);
    await screenshot(w.page, '03-tablet');
    await w.page.setViewportSize({ width: 600, height: 900 });
    await w.page.getByRole('button', { name: 'Navigation' }).click();
    await w.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
    await w.page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await w.page.setViewportSize({ width: 1280, height: 900 });
  });

  it('a reload means logging in again (the token lived in memory only); logging out forgets it and revokes the refresh token', async () => {
    await w.page.reload();
    await w.page.getByRole('button', { name: 'Log in' }).waitFor();
    const loggedIn = w.page.waitForResponse((r) => r.url().endsWith('/backoffice/v1/users/login') && r.status() === 200);
    await logIn(w.page, tenant.admin.username, tenant.admin.password);
    const { refresh_token } = (await (await loggedIn).json()) as { refresh_token: string };
    await w.page.getByRole('button', { name: 'Log out' }).waitFor();
    const loggedOut = w.page.waitForResponse((r) => r.url().endsWith('/backoffice/v1/users/logout'));
    await w.page.getByRole('button', { name: 'Log out' }).click();
    await w.page.getByRole('button', { name: 'Log in' }).waitFor();
    expect((await loggedOut).status()).toBe(204);
    // A copy of the refresh token is worth nothing now (POST /users/logout revoked it on the server).
    const refused = await api('POST', '/users/refresh', { body: { refresh_token } });
    expect([refused.status, refused.body.code]).toEqual([401, 'INVALID_CREDENTIAL']);
    await w.page.goto(consoleUrl('/automations/new'));
    await w.page.getByRole('button', { name: 'Log in' }).waitFor();
  });

  it('talked to no host but the service, without console or CSP errors', () => {
    expect([...w.hosts]).toEqual(['localhost']);
    expect(w.problems).toEqual([]);
  });
});

/** A GET of the console's origin, trusting the service's own certificate. */
function fetchPath(path: string): Promise<{ status: number; headers: Map<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = https.get(`${new URL(consoleUrl()).origin}${path}`, { ca: serviceCa() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = new Map(Object.entries(res.headers).map(([k, v]) => [k, String(v)]));
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
  });
}

const fetchPage = (route: string) => fetchPath(`/console${route}`);
