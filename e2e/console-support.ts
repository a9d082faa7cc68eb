// Shared by the console's browser tests (e2e/console-*.e2e.ts): the built console, a browser page
// that records what it talks to and what it complains about, logging in, screenshots.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page, Request } from 'playwright-core';
import { api } from '../test/support/api';
import { testState } from '../test/support/state';
import { launchChromium } from './browser';

const ROOT = path.resolve(__dirname, '..');
const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');

/** The console as `npm start` would serve it: both builds are no-ops when their stamps match. */
export function ensureConsoleBuilt(): void {
  for (const script of ['scripts/build.mjs', 'scripts/build-console.mjs']) execFileSync(process.execPath, [path.join(ROOT, script)], { cwd: ROOT, stdio: 'inherit' });
}

export const consoleUrl = (route = '') => `${new URL(testState().url).origin}/console${route}`;

export interface Watched {
  browser: Browser;
  page: Page;
  /** Hosts the page sent requests to. */
  hosts: Set<string>;
  /** Console errors, page errors and CSP violations, in order. */
  problems: string[];
  /** Requests sent and not answered yet. */
  pending: Set<Request>;
}

export async function openConsole(viewport = { width: 1280, height: 900 }): Promise<Watched> {
  const browser = await launchChromium();
  // The service's certificate is self-signed.
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport });
  // Twice Playwright's 30 s: on a loaded 2-core machine one answer of the shared service took
  // longer, and one late wait failed every step after it.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  const hosts = new Set<string>();
  const problems: string[] = [];
  const pending = new Set<Request>();
  page.on('requestfinished', (req) => pending.delete(req));
  page.on('requestfailed', (req) => pending.delete(req));
  page.on('request', (req) => {
    pending.add(req);
    const url = new URL(req.url());
    if (url.protocol.startsWith('http') || url.protocol.startsWith('ws')) hosts.add(url.hostname);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || (msg.type() === 'warning' && /Content.Security.Policy/i.test(msg.text()))) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(String(err)));
  return { browser, page, hosts, problems, pending };
}

/**
 * Waits until every request the page sent is answered and stays so for 250 ms: a page's calls
 * refused together may answer after what the test waits for, and log their refusal then.
 */
export async function settled(w: Watched, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (let quiet = 0; quiet < 2; ) {
    if (Date.now() > until) throw new Error(`requests still pending after ${timeoutMs} ms: ${[...w.pending].map((r) => r.url()).join(', ')}`);
    await new Promise((r) => setTimeout(r, 125));
    quiet = w.pending.size === 0 ? quiet + 1 : 0;
  }
}

export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** A console signed in as `user` at `path`, once the page's heading shows. */
export async function openSignedIn(user: { username: string; password: string }, path: string, heading: string): Promise<Watched> {
  const w = await openConsole();
  await w.page.goto(consoleUrl(path));
  await logIn(w.page, user.username, user.password);
  await w.page.getByRole('heading', { name: heading }).waitFor();
  return w;
}

/** A full-page shot, from the top: one of a scrolled page draws the fixed header in the middle. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: path.join(ARTIFACTS, `console-${name}.png`), fullPage: true });
}

/** An API call with the tenant's secret key for what a test sets up or checks; anything but 200 throws. */
export async function apiCall(key: string, method: string, route: string, body?: unknown) {
  const res = await api(method, route, { key, body });
  if (res.status !== 200) throw new Error(`${method} ${route}: ${res.status} ${res.text}`);
  return res.body;
}

/** A Mantine select: open it (by its exact label), optionally type to filter, pick the option. */
export async function choose(page: Page, scope: Locator | Page, label: string, option: string | RegExp, typed?: string): Promise<void> {
  const input = scope.getByRole('combobox', { name: label, exact: true });
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option, exact: typeof option === 'string' }).click();
}

/** The error a field shows: the element its aria-describedby names as its error (what a screen reader reads with it). */
export async function fieldError(field: Locator): Promise<string | null> {
  if ((await field.getAttribute('aria-invalid')) !== 'true') return null;
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter((id) => id.endsWith('-error'));
  if (ids.length !== 1) return null;
  return field.page().locator(`[id="${ids[0]}"]`).innerText();
}

/**
 * Waits until the field is marked invalid, then answers its error. The locator is asked again on each
 * poll: a refusal may switch tabs and put a new element where the field was, so a handle taken before
 * would never see the mark.
 */
export async function waitForFieldError(field: Locator): Promise<string | null> {
  await field.and(field.page().locator('[aria-invalid="true"]')).waitFor({ timeout: 30_000 });
  return fieldError(field);
}

/**
 * Whether the page scrolls sideways (a table too wide scrolls inside its own container instead).
 * After a viewport change, charts resize on their ResizeObserver's next turn, so a page that still
 * scrolls is looked at again for up to 3 s: only one that keeps scrolling answers true.
 */
export async function scrollsSideways(page: Page): Promise<boolean> {
  const scrolls = () => page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
  const until = Date.now() + 3_000;
  while (await scrolls()) {
    if (Date.now() > until) return true;
    await page.waitForTimeout(100);
  }
  return false;
}
