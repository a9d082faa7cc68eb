import type { Browser, Page } from 'playwright-core';
import { testState } from '../test/support/state';
import { eventually } from '../test/communications/helpers';
import { launchChromium } from './browser';

describe('API reference page in a browser', () => {
  let browser: Browser;
  let page: Page;
  const hosts = new Set<string>();
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    // The service's certificate is self-signed.
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    page = await context.newPage();
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'ws:' || url.protocol === 'wss:') hosts.add(url.hostname);
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    page.on('pageerror', (err) => consoleErrors.push(String(err)));
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Swagger UI virtualises a long operation list: it renders only the blocks near the viewport. */
  async function scrolledTo(path: string) {
    const block = page.locator('.opblock', { has: page.locator(`[data-path="${path}"]`) }).first();
    for (let i = 0; i < 200 && (await block.count()) === 0; i++) await page.mouse.wheel(0, 800);
    return block;
  }

  it('opens with every tag collapsed and a filter box; a tag opens on a click', async () => {
    const res = await page.goto(`${testState().url}/docs`);
    expect(res?.status()).toBe(200);
    const authentication = page.locator('.opblock-tag', { hasText: 'Authentication' }).first();
    await authentication.waitFor({ state: 'visible', timeout: 60_000 });
    expect(await page.locator('.opblock').count()).toBe(0);
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThan(10);
    // The filter box keeps the tags whose name matches.
    await page.locator('input.operation-filter-input').fill('Authentication');
    await eventually(async () => (await page.locator('.opblock-tag').count()) === 1, 10_000, 'the filter to keep one tag');
    await authentication.click();
    const login = page.locator('.opblock', { hasText: '/users/login' }).first();
    await login.waitFor({ state: 'visible', timeout: 30_000 });
    const text = await login.innerText();
    expect(text).toContain('POST');
    expect(text).toContain('Log in a back-office user');
    await page.locator('input.operation-filter-input').fill('');
    expect(await page.locator('.info .title').innerText()).toContain('Back-office API');
    // Swagger UI lists unresolvable $refs and schema errors in this box.
    expect(await page.locator('.errors-wrapper').count()).toBe(0);
  });

  it('renders down to the last tag (nothing in the document stops Swagger UI part-way)', async () => {
    const last = page.locator('.opblock-tag', { hasText: 'Activities' }).last();
    await last.scrollIntoViewIfNeeded();
    await last.click();
    expect(await (await scrolledTo('/activities/{id}/life_cycle_state')).innerText()).toContain('PUT');
  });

  it('expands an operation to show its parameters and responses', async () => {
    await page.locator('.opblock-summary', { hasText: '/users/login' }).first().click();
    const body = page.locator('.opblock.is-open').first();
    await body.locator('.responses-wrapper').waitFor({ timeout: 30_000 });
    const text = await body.innerText();
    expect(text).toContain('401');
    expect(text).toContain('415');
  });

  it('talked to no host but the service, without console or CSP errors', () => {
    expect([...hosts]).toEqual(['localhost']);
    expect(consoleErrors).toEqual([]);
  });
});
