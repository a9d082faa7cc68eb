// The console's login, shell and security headers in headless Chromium (docs/console.md); a
// session past its access token's expiry, on a service of its own whose tokens last a minute.
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { api, serviceCa } from '../test/support/api';
import { ownDatabase } from '../test/support/own-database';
import { serviceEnv, startServiceProcess, type ServiceProcess } from '../test/support/service-process';
import { adminCli, createTenant, type Tenant } from '../test/support/tenants';
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

describe('console: a session past its access token (ACCESS_TOKEN_TTL_SECONDS=60, the least the service takes)', () => {
  // A service of its own: the shared one's tokens last 15 minutes.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'backoffice-console-refresh-'));
  const own = ownDatabase('console_refresh');
  let service: ServiceProcess | undefined;
  let tenant: Tenant;
  let w: Watched;
  /** Every API call the page made, in the order the answers came. */
  const calls: Array<{ call: string; status: number }> = [];
  /** Every access and refresh token the service gave the page. */
  const tokens = new Set<string>();
  const url = (route: string) => `${new URL(service!.url).origin}/console${route}`;
  const section = (name: string) => w.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();
  const isRefresh = (r: { url(): string }) => new URL(r.url()).pathname === '/backoffice/v1/users/refresh';
  /** The page's clock stopped (a second on: pauseAt refuses a time its clock has passed): its timers wait, as in a tab that sleeps. */
  const stopPageClock = async () => w.page.clock.pauseAt((await w.page.evaluate<number>('Date.now()')) + 1000);

  beforeAll(async () => {
    ensureConsoleBuilt();
    await own.create();
    service = await startServiceProcess(serviceEnv(dataDir, { ...own.env, ACCESS_TOKEN_TTL_SECONDS: '60' }));
    tenant = await createTenant('Console refresh', dataDir, own.url);
    const made = await api('POST', '/contacts', { baseUrl: service.url, ca: serviceCa(dataDir), key: tenant.secretKey, body: { contact_type: 'PERSON', code: 'REFRESH-1', first_name: 'Rhea', last_name: 'Refresh' } });
    expect(made.status).toBe(200);
    w = await openConsole();
    w.page.on('response', (r) => {
      const { pathname } = new URL(r.url());
      if (!pathname.startsWith('/backoffice/v1/')) return;
      calls.push({ call: `${r.request().method()} ${pathname.slice('/backoffice/v1'.length)}`, status: r.status() });
      if (r.status() === 200 && /\/users\/(login|refresh)$/.test(pathname)) {
        void r.json().then((pair: { access_token: string; refresh_token: string }) => (tokens.add(pair.access_token), tokens.add(pair.refresh_token)));
      }
    });
    // The page's timers run on a clock the test can stop (Playwright's), time flowing as usual until then.
    await w.page.clock.install();
  }, 180_000);

  afterAll(async () => {
    await w?.browser.close();
    await service?.stop();
    rmSync(dataDir, { recursive: true, force: true });
    await own.drop();
  });

  it('keeps working past the expiry: a request refused with 401 is refreshed and sent again, and ahead of the expiry it refreshes by itself; no token stored', async () => {
    const page = w.page;
    await page.goto(url('/customers'));
    await logIn(page, tenant.admin.username, tenant.admin.password);
    await page.getByTestId('contact-row').waitFor();
    await section('Webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();

    // The tab sleeps past the expiry: no refresh ahead of it, every token the page holds expires.
    await stopPageClock();
    await new Promise((r) => setTimeout(r, 62_000));
    const slept = calls.length;
    await section('Customers');
    await page.getByTestId('contact-row').getByText('Rhea Refresh').waitFor();
    const after = calls.slice(slept);
    expect(after.filter((c) => c.call === 'POST /users/refresh').map((c) => c.status)).toEqual([200]);
    // The expired token was presented and refused; each refused call was sent again and answered.
    const refused = after.filter((c) => c.status === 401);
    expect(refused.map((c) => c.call)).toContain('GET /contacts');
    refused.forEach((c) => expect(after.slice(after.indexOf(c) + 1)).toContainEqual({ call: c.call, status: 200 }));
    // None of them reached the user.
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(w.problems.length).toBe(refused.length);
    expect(w.problems.every((p) => p.includes('status of 401'))).toBe(true);
    w.problems.length = 0;

    // Awake, it refreshes ahead of the expiry (a minute before it; 5 s after a refresh for a token of a minute) and nothing is refused.
    const awake = calls.length;
    const ahead = page.waitForResponse(isRefresh);
    await page.clock.resume();
    expect((await ahead).status()).toBe(200);
    await section('Webhooks');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    expect(calls.slice(awake).filter((c) => c.status !== 200)).toEqual([]);

    // No token, neither the first nor a refreshed one, in storage or cookies.
    expect(tokens.size).toBeGreaterThanOrEqual(6);
    const stored = await page.evaluate<string>('JSON.stringify({ l: { ...localStorage }, s: { ...sessionStorage }, c: document.cookie })');
    for (const token of tokens) expect(stored).not.toContain(token);
    expect(stored).not.toMatch(/eyJ|rt_/);
    expect(await page.context().cookies()).toEqual([]);
  }, 180_000);

  it("a refresh the service refuses (the user's sessions revoked) returns to the login, which says the session ended; logging in again comes back", async () => {
    const page = w.page;
    await stopPageClock();
    await adminCli(['revoke-sessions', '--organisation', tenant.organisationId, '--username', tenant.admin.username], dataDir, own.url);
    const refresh = page.waitForResponse(isRefresh);
    // The refresh due within 5 s of the last one.
    await page.clock.runFor(6_000);
    expect((await refresh).status()).toBe(401);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.getByTestId('session-ended').innerText()).toContain('Your session has ended');
    await screenshot(page, '10-session-ended');
    await page.clock.resume();
    expect(w.problems).toEqual([expect.stringContaining('status of 401')]);
    w.problems.length = 0;

    await logIn(page, tenant.admin.username, tenant.admin.password);
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/webhooks');
    // Logging out is the user's own doing: the login says nothing of an ended session.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.getByTestId('session-ended').count()).toBe(0);
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
