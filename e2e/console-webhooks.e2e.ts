// The Webhooks pages (docs/console.md "Webhooks") in headless Chromium: a webhook to a local
// receiver made in the console (the test service allows 127.0.0.1: OUTBOUND_ALLOW_CIDRS in
// test/support/service-process.ts), its signing secret shown once, a test sent and its result
// followed in the log down to the receiver's answer, a rotation that signs with both secrets.
import { eventually } from '../test/communications/helpers';
import { api } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { expectedSignature, startReceiver, type Receiver } from '../test/webhooks/receiver';
import { choose, ensureConsoleBuilt, openSignedIn, screenshot, scrollsSideways, type Watched } from './console-support';
import { shownOnceSecret } from './console-settings-support';

let tenant: Tenant;
let w: Watched;
let receiver: Receiver;
let webhookId: string;
let secret: string;
const RECEIVER_ANSWER = 'thanks from the CRM';

const get = async (route: string) => {
  const res = await api('GET', route, { key: tenant.secretKey });
  if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${res.text}`);
  return res.body;
};

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console webhooks');
  receiver = await startReceiver(() => ({ status: 200, body: RECEIVER_ANSWER }));
  w = await openSignedIn(tenant.admin, '/automations', 'Automations');
});

afterAll(async () => {
  await w?.browser.close();
  await receiver?.close();
});

test('creates a webhook to a local receiver: a refused URL is shown at its field, the secret is shown once', async () => {
  const page = w.page;
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
  await page.getByText('No webhook yet.').waitFor();
  await screenshot(page, 'webhooks-01-empty');

  await page.getByRole('link', { name: 'New webhook' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Our CRM');
  // A private address the operator did not allow: the API refuses it, named at the URL field.
  const url = page.getByRole('textbox', { name: 'URL' });
  await url.fill('http://10.1.2.3/hook');
  await choose(page, page, 'Authentication at the receiver', 'API key (api_key header)');
  await page.getByLabel('API key').fill('crm-key-123');
  await page.getByRole('button', { name: 'Create' }).click();
  await eventually(async () => (await url.getAttribute('aria-invalid')) === 'true', 10_000, 'the URL field marked invalid');
  // The message is the field's own description (what a screen reader says with it).
  const described = ((await url.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const fieldError = (await Promise.all(described.map((id) => page.locator(`[id="${id}"]`).innerText()))).join(' ');
  expect(fieldError).toContain('10.1.2.3');
  expect(fieldError).not.toMatch(/^url_endpoint:/);
  await screenshot(page, 'webhooks-02-url-refused-at-field');
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;

  await url.fill(receiver.url);
  await page.getByRole('button', { name: 'Create' }).click();
  secret = await shownOnceSecret(page);
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  await screenshot(page, 'webhooks-03-secret-shown-once');
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await page.getByRole('heading', { name: 'Webhook: Our CRM' }).waitFor();
  webhookId = new URL(page.url()).pathname.split('/').pop()!;

  const [stored] = (await get(`/webhooks/${webhookId}`)).content;
  expect(stored).toMatchObject({ name: 'Our CRM', method: 'POST', url_endpoint: receiver.url, url_auth: 'API_KEY', has_api_key: true, secret_key: secret });
  // Once: the webhook's page shows only the secret's first characters.
  expect(await page.locator('body').innerText()).not.toContain(secret);
  expect(await page.locator('body').innerText()).toContain(`${secret.slice(0, 10)}…`);
});

test('sends a test and sees it succeed in the log with the response code and body; the receiver got it signed', async () => {
  const page = w.page;
  await page.getByRole('button', { name: 'Send a test' }).click();
  const row = page.getByTestId('request-row').first();
  // The log follows a PENDING request by itself: no reload.
  await row.getByTestId('request-state').getByText('SUCCESS').waitFor({ timeout: 30_000 });
  expect(await row.getByTestId('request-status').innerText()).toBe('200');
  expect(await row.innerText()).toContain('WEBHOOK_TEST');
  await row.getByRole('button', { name: 'Show attempts' }).click();
  const attempt = page.getByTestId('attempt-row').first();
  await attempt.waitFor();
  expect(await attempt.innerText()).toContain('200');
  expect(await attempt.innerText()).toContain(RECEIVER_ANSWER);
  expect(await page.getByTestId('request-detail').innerText()).toContain(`"webhook_id": "${webhookId}"`);
  await screenshot(page, 'webhooks-04-test-succeeded');

  expect(receiver.received).toHaveLength(1);
  const [got] = receiver.received;
  expect(JSON.parse(got.body)).toMatchObject({ type: 'WEBHOOK_TEST', data: { webhook_id: webhookId } });
  expect(got.headers.api_key).toBe('crm-key-123');
  expect(got.headers['webhook-signature']).toBe(expectedSignature(secret, got));
  const [request] = (await get(`/webhook_requests?webhook_id=${webhookId}`)).content;
  expect(request).toMatchObject({ state: 'SUCCESS', response_status: 200, response: RECEIVER_ANSWER });
});

test('rotates the secret: the new one is shown once, and the next request is signed with both', async () => {
  const page = w.page;
  await page.getByRole('button', { name: 'Rotate the secret' }).click();
  await choose(page, page.getByRole('dialog'), 'Keep the old secret signing for', '1 hour');
  await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
  const rotated = await shownOnceSecret(page);
  expect(rotated).not.toBe(secret);
  await screenshot(page, 'webhooks-05-rotated-secret');
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await page.getByText('The previous secret also signs until').waitFor();
  const [stored] = (await get(`/webhooks/${webhookId}`)).content;
  expect(stored.secret_key).toBe(rotated);
  const hour = Math.abs(stored.previous_secret_key_active_until - (Date.now() / 1000 + 3600));
  expect(hour).toBeLessThan(120);

  await page.getByRole('button', { name: 'Send a test' }).click();
  await eventually(async () => receiver.received.length === 2, 30_000, 'the second test at the receiver');
  const second = receiver.received[1];
  expect(second.headers['webhook-signature']).toBe(`${expectedSignature(rotated, second)} ${expectedSignature(secret, second)}`);
  await eventually(async () => (await page.getByTestId('request-state').allInnerTexts()).join(',') === 'SUCCESS,SUCCESS', 30_000, 'both tests SUCCESS in the log');
});

test('edits the webhook; the list counts its requests by state; the whole log filters by state', async () => {
  const page = w.page;
  await page.getByRole('textbox', { name: 'Name' }).fill('Our CRM (EU)');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: 'Webhook: Our CRM (EU)' }).waitFor();
  const [stored] = (await get(`/webhooks/${webhookId}`)).content;
  // Only the name changed: the stored API key stayed (it was not typed again).
  expect(stored).toMatchObject({ name: 'Our CRM (EU)', url_auth: 'API_KEY', has_api_key: true, successful_requests: 2 });

  await page.getByRole('link', { name: 'All webhooks' }).click();
  const listed = page.getByTestId('webhook-row').filter({ hasText: 'Our CRM (EU)' });
  await listed.waitFor();
  expect(await listed.getByTestId('request-counts').innerText()).toMatch(/0 pending\s*2 successful\s*0 failed/i);
  await screenshot(page, 'webhooks-06-list-with-counts');

  await page.getByRole('link', { name: 'Request log' }).click();
  await page.getByRole('heading', { name: 'Webhook request log' }).waitFor();
  await page.getByTestId('request-row').first().waitFor();
  expect(await page.getByTestId('request-row').count()).toBe(2);
  await choose(page, page, 'State', 'FAILED');
  await page.getByText('No request in state FAILED yet.').waitFor();
  await choose(page, page, 'State', 'SUCCESS');
  await eventually(async () => (await page.getByTestId('request-row').count()) === 2, 10_000, 'the two successful requests');
  // A request keeps the webhook's name from when it was made (docs/webhooks.md), and links to the webhook.
  expect(await page.getByTestId('request-row').first().innerText()).toContain('Our CRM\t');
  await screenshot(page, 'webhooks-07-request-log');
});

test('works at tablet width without sideways scrolling', async () => {
  const page = w.page;
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.getByRole('link', { name: 'Our CRM', exact: true }).first().click();
  await page.getByRole('heading', { name: 'Webhook: Our CRM (EU)' }).waitFor();
  await page.getByTestId('request-row').first().waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, 'webhooks-08-tablet');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
