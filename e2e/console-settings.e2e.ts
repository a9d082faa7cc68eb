// The Settings and keys pages (docs/console.md "Settings and keys") in headless Chromium: the
// organisation's settings with an error at its field, an API key made with one scope, its
// shown-once secret read from the page and used with curl (allowed: 200, another scope: 403),
// revoked in the console and then refused (401); the users list and a user's names.
import { eventually } from '../test/communications/helpers';
import { api } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { choose, consoleUrl, ensureConsoleBuilt, logIn, openConsole, screenshot, scrollsSideways, type Watched } from './console-support';
import { curl, shownOnceSecret } from './console-settings-support';

let tenant: Tenant;
let w: Watched;
/** The shop's key as the page showed it once. */
let shopKey: string;

const get = async (route: string) => {
  const res = await api('GET', route, { key: tenant.secretKey });
  if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${res.text}`);
  return res.body;
};

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console settings');
  w = await openConsole();
  // The copy button writes to the clipboard; the test reads it back.
  await w.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(consoleUrl()).origin });
  await w.page.goto(consoleUrl('/automations'));
  await logIn(w.page, tenant.admin.username, tenant.admin.password);
  await w.page.getByRole('heading', { name: 'Automations' }).waitFor();
});

afterAll(async () => {
  await w?.browser.close();
});

test('changes the organisation settings; a refused limit rule is shown at its field', async () => {
  const page = w.page;
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Money and time' }).waitFor();
  await page.getByText('The defaults: never changed').waitFor();
  await screenshot(page, 'settings-01-organisation-defaults');

  await choose(page, page, 'Time zone', 'Europe/Berlin', 'Berlin');
  await page.getByRole('textbox', { name: 'Alternative currency' }).fill('pts');
  await page.getByRole('textbox', { name: 'Alternative units per system unit' }).fill('10');
  await page.getByRole('button', { name: 'Add a rule' }).click();
  const rule = page.getByRole('group', { name: 'Rule 1' });
  await choose(page, rule, 'Transactions', 'Transfers');
  await rule.getByRole('textbox', { name: 'Least per transaction' }).fill('50');
  await rule.getByRole('textbox', { name: 'Most per period' }).fill('20');
  const money = page.getByRole('region', { name: 'Money and time' });
  await money.getByRole('button', { name: 'Save' }).click();
  // min > max: the API names limit_rules.0.maximum_amount, shown at that rule's field.
  const max = rule.getByRole('textbox', { name: 'Most per period' });
  await rule.getByText('must not be less than minimum_amount').waitFor();
  expect(await max.getAttribute('aria-invalid')).toBe('true');
  await screenshot(page, 'settings-02-rule-refused-at-field');
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;
  // Nothing was stored by the refused save.
  expect((await get('/settings')).time_zone).toBe('UTC');

  await max.fill('500');
  await money.getByRole('button', { name: 'Save' }).click();
  await page.getByText(/^Changed /).waitFor();
  expect(await get('/settings')).toMatchObject({
    time_zone: 'Europe/Berlin',
    alternative_currency_code: 'PTS',
    alternative_currency_rate: 10,
    system_currency_code: 'EUR',
    limit_rules: [{ period: 'DAILY', transaction_type: 'TRANSFER', minimum_amount: 50, maximum_amount: 500 }],
  });
  await screenshot(page, 'settings-03-organisation-saved');

  await choose(page, page, 'Show contact names as', 'Lovelace, Ada (LAST_COMMA_FIRST)');
  await page.getByRole('region', { name: 'Contact names' }).getByRole('button', { name: 'Save' }).click();
  await page.getByText('Name format saved').waitFor();
  expect((await get('/name_display_settings')).format).toBe('LAST_COMMA_FIRST');
});

test('creates an API key with one scope, reads it once, and uses it with curl: allowed 200, another scope 403', async () => {
  const page = w.page;
  await page.getByRole('tab', { name: 'API keys' }).click();
  expect(new URL(page.url()).pathname).toBe('/console/settings/api_keys');
  await page.getByRole('button', { name: 'New API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'New API key' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Shop integration');
  // No scope chosen: the console asks rather than let the API default to all.
  await dialog.getByRole('button', { name: 'Create the key' }).click();
  await dialog.getByText('Choose at least one scope, or all').waitFor();
  await dialog.getByRole('checkbox', { name: 'contacts:read' }).check();
  await screenshot(page, 'settings-04-new-key-scopes');
  await dialog.getByRole('button', { name: 'Create the key' }).click();

  const key = (shopKey = await shownOnceSecret(page));
  await page.getByRole('button', { name: 'Copy to clipboard' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
  await screenshot(page, 'settings-05-key-shown-once');
  await page.getByRole('button', { name: 'I have stored it' }).click();
  const row = page.getByTestId('api-key-row').filter({ hasText: 'Shop integration' });
  await row.waitFor();
  expect(await row.innerText()).toContain('contacts:read');
  expect(await row.getByTestId('api-key-state').innerText()).toBe('Active');
  // Shown once: the list has only its first characters.
  expect(await page.locator('body').innerText()).not.toContain(key);
  await screenshot(page, 'settings-06-keys-list');

  const allowed = await curl('GET', '/contacts', key);
  expect(allowed.status).toBe(200);
  expect(JSON.parse(allowed.body)).toHaveProperty('contacts');
  const otherScope = await curl('GET', '/webhooks', key);
  expect(otherScope.status).toBe(403);
  expect(JSON.parse(otherScope.body)).toMatchObject({ code: 'FORBIDDEN' });
  const write = await curl('POST', '/contacts', key, { contact_type: 'PERSON', first_name: 'Not', last_name: 'Allowed' });
  expect(write.status).toBe(403);
});

test('revokes the key after confirming, and curl with it is refused (401)', async () => {
  const page = w.page;
  const row = page.getByTestId('api-key-row').filter({ hasText: 'Shop integration' });
  const key = (await api('GET', '/api_keys', { key: tenant.secretKey })).body.content.find((k: { name: string }) => k.name === 'Shop integration');
  await row.getByRole('button', { name: 'Revoke Shop integration' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke “Shop integration”?' });
  await confirm.waitFor();
  await screenshot(page, 'settings-07-revoke-confirmation');
  // Cancel first: nothing happens.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect((await get('/api_keys')).content.find((k: { id: string }) => k.id === key.id).revoked_on).toBeNull();

  await row.getByRole('button', { name: 'Revoke Shop integration' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
  await row.getByTestId('api-key-state').getByText(/^Revoked /).waitFor();
  await screenshot(page, 'settings-08-key-revoked');
  expect((await get('/api_keys')).content.find((k: { id: string }) => k.id === key.id).revoked_on).toEqual(expect.any(Number));
  const refused = await curl('GET', '/contacts', shopKey);
  expect(refused.status).toBe(401);
  expect(JSON.parse(refused.body)).toMatchObject({ code: 'INVALID_CREDENTIAL' });
});

test('lists the users; an admin sets a user\'s names and e-mail', async () => {
  const page = w.page;
  await page.getByRole('tab', { name: 'Users' }).click();
  const row = page.getByTestId('user-row').filter({ hasText: tenant.admin.username });
  await row.waitFor();
  await row.getByRole('button', { name: `Edit ${tenant.admin.username}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'First name' }).fill('Grace');
  await dialog.getByRole('textbox', { name: 'Last name' }).fill('Hopper');
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill('not an address');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // The API names email: the message is at that field.
  const email = dialog.getByRole('textbox', { name: 'E-mail' });
  await eventually(async () => (await email.getAttribute('aria-invalid')) === 'true', 10_000, 'the e-mail field marked invalid');
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;
  await email.fill('grace@console.test');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await row.getByText('grace@console.test').waitFor();
  expect(await row.innerText()).toContain('Grace Hopper');
  const [user] = (await get(`/users?username=${encodeURIComponent(tenant.admin.username)}`)).content;
  expect(user).toMatchObject({ first_name: 'Grace', last_name: 'Hopper', email: 'grace@console.test' });
  await screenshot(page, 'settings-09-users');
});

test('works at tablet width without sideways scrolling', async () => {
  const page = w.page;
  await page.setViewportSize({ width: 768, height: 1024 });
  for (const tab of ['Organisation', 'API keys', 'Users']) {
    await page.getByRole('tab', { name: tab }).click();
    await page.getByRole('tabpanel').getByRole('heading').first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
  }
  await screenshot(page, 'settings-10-tablet');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
