// The customer pages of the console (issue 24 part 2) through the browser only: a contact created
// with a country picked by name (after the API refused a bad e-mail at that field), found by
// search, a wallet added, credited with a journal, the credit voided after a confirmation and the
// balance back. The API is used only to check what the console did, and to make a contact who
// reached a reward tier (the console makes no purchases) for the Rewards tab.
import type { Page } from 'playwright-core';
import { api } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { apiCall, choose, ensureConsoleBuilt, fieldError, openSignedIn, screenshot, type Watched } from './console-support';

let tenant: Tenant;
let w: Watched;
const RUN = Date.now().toString(36).toUpperCase();
const CODE = `CUST-${RUN}`;
let contactId: string;

const call = (method: string, route: string, body?: unknown) => apiCall(tenant.secretKey, method, route, body);

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console customers');
  w = await openSignedIn(tenant.admin, '/customers', 'Customers');
});

afterAll(async () => {
  await w?.browser.close();
});

const balance = (page: Page) => page.getByTestId('wallet').getByTestId('wallet-balance');

test('creates a contact (a bad e-mail refused at its field, the country picked by name), finds it, opens it', async () => {
  const page = w.page;
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByRole('heading', { name: 'New contact' }).waitFor();
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Eleni');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Console');
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(CODE);
  const email = page.getByRole('textbox', { name: 'E-mail address', exact: true });
  await email.fill('eleni-at-example');
  await page.getByRole('textbox', { name: 'Address line 1', exact: true }).fill('12 Makarios Avenue');
  await page.getByRole('textbox', { name: 'Town or city', exact: true }).fill('Nicosia');
  // Nobody has to know that Cyprus is CYP.
  await choose(page, page, 'Country', 'Cyprus', 'Cypr');
  await page.getByRole('button', { name: 'Create contact' }).click();

  // The API's own message, at the field its `attribute` names.
  const refused = await api('POST', '/contacts', { key: tenant.secretKey, body: { contact_type: 'PERSON', first_name: 'E', last_name: 'C', email_address: 'eleni-at-example' } });
  expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', attribute: 'email_address' });
  const message = String(refused.body.message).replace(/^email_address: /, '');
  await page.locator('[aria-invalid="true"]').first().waitFor();
  expect(await fieldError(email)).toBe(message);
  expect(await fieldError(page.getByRole('textbox', { name: 'First name', exact: true }))).toBeNull();
  await screenshot(page, 'customers-01-create-error-at-field');
  // Chromium logs the refused request's 400: the one expected complaint.
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;

  await email.fill('eleni@example.com');
  await screenshot(page, 'customers-02-create-filled');
  await page.getByRole('button', { name: 'Create contact' }).click();
  await page.getByRole('heading', { name: 'Eleni Console' }).waitFor();
  contactId = new URL(page.url()).pathname.split('/').pop()!;
  const stored = await call('GET', `/contacts/${contactId}`);
  expect(stored).toMatchObject({ code: CODE, first_name: 'Eleni', last_name: 'Console', email_address: 'eleni@example.com' });
  expect(stored.addresses).toEqual([expect.objectContaining({ address_line_1: '12 Makarios Avenue', town_city: 'Nicosia', country_code: 'CYP', country: 'Cyprus' })]);
  expect(await page.getByRole('table', { name: 'Profile' }).innerText()).toContain('12 Makarios Avenue, Nicosia, Cyprus');

  // Found by the free-text search (a part of its code), and opened from the results.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(RUN.toLowerCase());
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByTestId('contact-total').getByText('1 contact').waitFor();
  const row = page.getByTestId('contact-row');
  expect(await row.innerText()).toMatch(new RegExp(`Eleni Console\\s+${CODE}\\s+PERSON\\s+eleni@example.com\\s+.+\\s+Cyprus`));
  await screenshot(page, 'customers-03-search');

  // An exact filter the API refuses: its message at that filter.
  await page.getByRole('button', { name: 'More filters' }).click();
  const phone = page.getByRole('textbox', { name: 'Phone number', exact: true });
  await phone.fill('no digits');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const filterRefusal = (await api('GET', '/contacts?phone_number=no%20digits', { key: tenant.secretKey })).body;
  expect(filterRefusal).toMatchObject({ attribute: 'phone_number' });
  await page.locator('[aria-invalid="true"]').first().waitFor();
  expect(await fieldError(phone)).toBe(String(filterRefusal.message).replace(/^phone_number: /, ''));
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;
  await phone.fill('');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByTestId('contact-row').waitFor();
  await row.getByRole('link', { name: 'Eleni Console' }).click();
  await page.getByRole('heading', { name: 'Eleni Console' }).waitFor();
  expect(new URL(page.url()).pathname).toBe(`/console/customers/${contactId}`);
});

test('adds a wallet, credits it with a journal, voids the credit after a confirmation, and the balance is back', async () => {
  const page = w.page;
  await page.getByRole('tab', { name: 'Wallets' }).click();
  await page.getByText('No wallet yet.').waitFor();
  await page.getByRole('button', { name: /^Add a wallet to \d+$/ }).click();
  await balance(page).waitFor();
  expect(await balance(page).innerText()).toBe('0.00 EUR');
  const [wallet] = await call('GET', `/contacts/${contactId}/wallets`);

  await page.getByRole('button', { name: `Credit or debit wallet ${wallet.number}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /^Amount/ }).fill('1234.5');
  await dialog.getByRole('textbox', { name: 'Notes or reference', exact: true }).fill(`Goodwill ${RUN}`);
  await screenshot(page, 'customers-04-journal');
  await dialog.getByRole('button', { name: 'Credit', exact: true }).click();
  await dialog.waitFor({ state: 'detached' });
  // Exactly what the ledger answers, formatted: no float arithmetic on the way.
  await page.getByTestId('wallet-balance').getByText('1,234.50 EUR').waitFor();
  expect((await call('GET', `/contacts/${contactId}/wallets`))[0].balance).toBe(1234.5);
  expect(await page.getByTestId('spend-balance').innerText()).toMatch(/^Unrestricted\s+1,234.50\s+0.00\s+0.00\s+0.00\s+1,234.50$/);
  const credit = page.getByTestId('transaction-row').filter({ hasText: 'CREDIT' });
  expect(await credit.innerText()).toMatch(/CREDIT\s+POSTED\s+1,234.50 EUR/);
  await screenshot(page, 'customers-05-credited');

  // A debit beyond the balance: the API's refusal at the amount.
  await page.getByRole('button', { name: `Credit or debit wallet ${wallet.number}` }).click();
  await dialog.getByRole('radio', { name: 'Debit (take)' }).check();
  const amount = dialog.getByRole('textbox', { name: /^Amount/ });
  await amount.fill('5000');
  await dialog.getByRole('button', { name: 'Debit', exact: true }).click();
  await page.locator('[role="dialog"] [aria-invalid="true"]').first().waitFor();
  expect(await fieldError(amount)).toContain('The debit needs 5000');
  expect(w.problems).toEqual([expect.stringContaining('status of 409')]);
  w.problems.length = 0;
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });

  const { content: [journal] } = await call('GET', `/contacts/${contactId}/wallet_transactions`);
  await credit.getByRole('button', { name: `Void transaction ${journal.number}` }).click();
  const confirm = page.getByRole('dialog', { name: `Void transaction ${journal.number}?` });
  expect(await confirm.innerText()).toContain('This credit of 1,234.50 EUR will be undone');
  await screenshot(page, 'customers-06-void-confirmation');
  // Keeping it changes nothing.
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await confirm.waitFor({ state: 'detached' });
  expect((await call('GET', `/contacts/${contactId}/wallet_transactions`)).content.map((t: { life_cycle_state: string }) => t.life_cycle_state)).toEqual(['POSTED']);

  await credit.getByRole('button', { name: `Void transaction ${journal.number}` }).click();
  await confirm.getByRole('button', { name: 'Void transaction' }).click();
  await confirm.waitFor({ state: 'detached' });
  await page.getByTestId('wallet-balance').getByText('0.00 EUR').waitFor();
  await page.getByTestId('transaction-row').filter({ hasText: 'VOID' }).first().waitFor();
  expect(await page.getByTestId('transaction-row').filter({ hasText: 'CREDIT' }).innerText()).toMatch(/CREDIT\s+VOID/);
  expect(await page.getByRole('button', { name: /^Void transaction/ }).count()).toBe(0);
  expect((await call('GET', `/contacts/${contactId}/wallets`))[0].balance).toBe(0);
  await screenshot(page, 'customers-07-voided');
});

test('the other tabs show what the API has, the edit form saves, and the page fits a tablet', async () => {
  const page = w.page;
  await page.getByRole('tab', { name: 'Activity' }).click();
  const activity = page.getByTestId('activity-row');
  await activity.first().waitFor();
  // Newest first, numbered as the API numbers them: one sequence for every organisation of the
  // database, so the numbers depend on what other tests wrote before (1 and 2 alone, 4 and 5 after
  // the reports test's three awards).
  const numbers = Object.fromEntries((await call('GET', `/contacts/${contactId}/wallet_transactions`)).content.map((t: { classification: string; number: number }) => [t.classification, t.number]));
  expect(await activity.allInnerTexts()).toEqual([
    expect.stringMatching(new RegExp(`VOID\\s+OUT\\s+${numbers.VOID}\\s+1,234.50 EUR`, 'i')),
    expect.stringMatching(new RegExp(`CREDIT\\s+IN\\s+${numbers.CREDIT}\\s+1,234.50 EUR\\s+VOID\\s+Goodwill`, 'i')),
  ]);
  for (const [tab, empty] of [['Purchases', 'No purchase.'], ['Vouchers', 'No voucher.'], ['Communications', 'No communication.'], ['Accounts', 'Primary']]) {
    await page.getByRole('tab', { name: tab }).click();
    await page.getByRole('tabpanel').getByText(empty).first().waitFor();
  }
  expect(new URL(page.url()).searchParams.get('tab')).toBe('accounts');
  await page.getByRole('tab', { name: 'Rewards' }).click();
  await page.getByText('No tier reached yet.').waitFor();

  await page.getByRole('tab', { name: 'Profile' }).click();
  await page.getByRole('radio', { name: 'Accepted' }).check();
  await page.getByRole('button', { name: 'Save consent' }).click();
  await page.getByTestId('consent-state').getByText('ACCEPTED').waitFor();
  expect((await call('GET', `/contacts/${contactId}`)).consent_state).toBe('ACCEPTED');

  await page.getByRole('link', { name: 'Edit' }).click();
  const lastName = page.getByRole('textbox', { name: 'Last name', exact: true });
  await lastName.waitFor();
  expect(await lastName.inputValue()).toBe('Console');
  expect(await page.getByRole('combobox', { name: 'Country', exact: true }).inputValue()).toBe('Cyprus');
  await lastName.fill('Konsola');
  await choose(page, page, 'Preferred language', 'Greek', 'Gre');
  await page.getByRole('checkbox', { name: 'Opted out of marketing SMS' }).check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('heading', { name: 'Eleni Konsola' }).waitFor();
  await page.getByTestId('consent-state').waitFor();
  await screenshot(page, 'customers-08-profile');
  const stored = await call('GET', `/contacts/${contactId}`);
  expect(stored).toMatchObject({ last_name: 'Konsola', preferred_language_code: 'ell', sms_opt_out: true, email_opt_out: false });
  // The address was changed in place, not added again.
  expect(stored.addresses).toHaveLength(1);

  await page.setViewportSize({ width: 768, height: 1024 });
  await page.getByRole('tab', { name: 'Wallets' }).click();
  await page.getByText('Nothing left to spend.').waitFor();
  expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(768);
  await screenshot(page, 'customers-09-tablet-wallets');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('a contact whose purchase reached a reward tier: the Rewards tab shows the tier, the way to the next and the joined schemes', async () => {
  const page = w.page;
  // Through the API, as the loyalty team and a till would: two tiers, an open scheme joined, a purchase of 300.
  for (const t of [
    { name: 'Bronze', color: '#CD7F32', position: 1, period_value_units: 100, lifetime_value_units: 1000 },
    { name: 'Silver', color: '#C0C0C0', position: 2, period_value_units: 500, lifetime_value_units: 5000 },
  ]) await call('POST', '/reward_tiers', t);
  const scheme = `Harbour Club ${RUN}`;
  const { id: schemeId } = await call('POST', '/reward_schemes', { name: scheme, code: `HC-${RUN}`, sign_up_option: 'OPEN' });
  const code = `TIER-${RUN}`;
  const { id: theo } = await call('POST', '/contacts', { contact_type: 'PERSON', code, first_name: 'Theo', last_name: 'Tiers', accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
  const account = (await call('GET', `/contacts/${theo}/accounts`)).accounts[0].id;
  await call('POST', `/accounts/${account}/reward_schemes`, { reward_scheme_id: schemeId });
  await call('POST', '/purchases', { contact_id: theo, reference_number: `POS-${RUN}`, products: [{ product_sku: 'SKU-1', net_amount: 300, tax_amount: 0, total_amount: 300 }] });
  // Bronze by its period threshold (300 of 100); Silver is 300 of 500 away: 60 %.
  const rewards = await call('GET', `/accounts/${account}/rewards`);
  expect(rewards.reward_tier).toMatchObject({ name: 'Bronze', color: '#CD7F32', period_value_units: 300, lifetime_value_units: 300, next_tier_progression: 60 });

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(code);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByTestId('contact-row').getByRole('link', { name: 'Theo Tiers' }).click();
  await page.getByRole('heading', { name: 'Theo Tiers' }).waitFor();
  await page.getByRole('tab', { name: 'Rewards' }).click();
  const tier = page.getByTestId('reward-tier');
  await tier.waitFor();
  expect(await tier.innerText()).toMatch(/^Bronze\s+Value units this year 300\.00; lifetime 300\.00\s+Progress to the next tier: 60%/);
  expect(await tier.getByRole('progressbar', { name: 'Progress to the next tier', exact: true }).getAttribute('aria-valuenow')).toBe('60');
  const schemes = page.getByRole('table', { name: 'Joined reward schemes' }).getByTestId('scheme-row');
  expect(await schemes.count()).toBe(rewards.joined_reward_schemes.length);
  expect(await schemes.innerText()).toMatch(new RegExp(`^${scheme}\\s+.+\\s+OPEN\\s+Sign out$`));
  // The tenant's only scheme is joined: nothing is left to sign up to.
  expect(await page.getByRole('form', { name: 'Sign up to a scheme' }).count()).toBe(0);
  await screenshot(page, 'customers-10-rewards-tier');
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
