// Shared by the console's browser tests (e2e/console-*.e2e.ts): the built console, a browser page
// that records what it talks to and what it complains about, logging in, screenshots.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
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
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.protocol.startsWith('http') || url.protocol.startsWith('ws')) hosts.add(url.hostname);
  });
  page.on('console', (msg) => {
    if (msg.type() === 'error' || (msg.type() === 'warning' && /Content.Security.Policy/i.test(msg.text()))) problems.push(msg.text());
  });
  page.on('pageerror', (err) => problems.push(String(err)));
  return { browser, page, hosts, problems };
}

export async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `console-${name}.png`), fullPage: true });
}
