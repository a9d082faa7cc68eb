// The Segments tab (docs/console.md "Communications", "Segments") in headless Chromium: a FILTER
// segment whose members are the API's own resolution, a refusal at its field, a STATIC segment
// of picked contacts, the plan page offering it, and a delete refused while a plan sends to it,
// then done. The API seeds the contacts (and the plan) and checks what the console did.
import { api } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { apiCall, choose, ensureConsoleBuilt, openSignedIn, screenshot, scrollsSideways, waitForFieldError, type Watched } from './console-support';

let tenant: Tenant;
let w: Watched;
let filterId: string;
let staticId: string;
const ZONE = 'Asia/Nicosia';
const contacts: Record<string, string> = {};

const call = (method: string, route: string, body?: unknown) => apiCall(tenant.secretKey, method, route, body);
/** A day in the organisation's zone, `offset` days from today, as a date input takes it. */
const dayIn = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date(Date.now() + offset * 86_400_000));
/** Epoch seconds on the zone's wall clock, `DD/MM/YYYY, HH:mm:ss`. */
const wallClock = (epoch: number) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(new Date(epoch * 1000));
const dmy = (ymd: string) => ymd.split('-').reverse().join('/');

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console segments');
  await call('PUT', '/settings', { time_zone: ZONE });
  for (const [code, first_name, last_name] of [['SEG-1', 'Anna', 'Segtest'], ['SEG-2', 'Boris', 'Segtest'], ['SEG-3', 'Clara', 'Other']]) {
    contacts[code] = (await call('POST', '/contacts', { contact_type: 'PERSON', code, first_name, last_name, email_address: `${code.toLowerCase()}@segments.test` })).id;
  }
  w = await openSignedIn(tenant.admin, '/automations', 'Automations');
});

afterAll(async () => {
  await w?.browser.close();
});

const nav = () => w.page.getByRole('navigation', { name: 'Sections' });
const tab = (name: string) => w.page.getByRole('tab', { name });
const textbox = (name: string) => w.page.getByRole('textbox', { name, exact: true });
const idOfPage = () => new URL(w.page.url()).pathname.split('/').pop()!;
const previewNames = () => w.page.getByTestId('preview-row').getByRole('link').allInnerTexts();

test('a FILTER segment: its members shown are the ones the API resolves it to', async () => {
  const page = w.page;
  await nav().getByRole('link', { name: 'Communications' }).click();
  await tab('Segments').click();
  await page.getByText(/^No segment yet/).waitFor();
  await screenshot(page, 'segments-01-empty');

  await page.getByRole('link', { name: 'New segment' }).click();
  await page.getByRole('heading', { name: 'New segment' }).waitFor();
  await textbox('Name').fill('Segtest family');
  await textbox('Code').fill('SEGTEST');
  expect(await page.getByRole('radio', { name: 'Filter' }).isChecked()).toBe(true);
  await textbox('Last name').fill('Segtest');
  await page.getByLabel('Registered from', { exact: true }).fill(dayIn(-1));
  await page.getByLabel('Registered until', { exact: true }).fill(dayIn(1));
  await page.getByRole('button', { name: 'Create segment' }).click();
  await page.getByRole('heading', { name: 'Segment: Segtest family' }).waitFor();
  filterId = idOfPage();

  // Only the filled filters are sent; the days are the organisation's, both included.
  const stored = await call('GET', `/segments/${filterId}`);
  expect(stored).toMatchObject({ name: 'Segtest family', code: 'SEGTEST', type: 'FILTER', contact_count: null });
  expect(Object.keys(stored.filters).sort()).toEqual(['last_name', 'registered_on_from', 'registered_on_to']);
  expect(stored.filters.last_name).toBe('Segtest');
  expect(wallClock(stored.filters.registered_on_from)).toBe(`${dmy(dayIn(-1))}, 00:00:00`);
  expect(wallClock(stored.filters.registered_on_to)).toBe(`${dmy(dayIn(1))}, 23:59:59`);

  const resolved = (await call('GET', `/segments/${filterId}/contacts`)).content as Array<{ id: string; name: string }>;
  expect(resolved.map((c) => c.id).sort()).toEqual([contacts['SEG-1'], contacts['SEG-2']].sort());
  await page.getByTestId('preview-total').getByText('2 contacts').waitFor();
  expect(await previewNames()).toEqual(resolved.map((c) => c.name));
  expect(await page.getByTestId('preview-row').getByRole('link').first().getAttribute('href')).toBe(`/console/customers/${resolved[0].id}`);
  await screenshot(page, 'segments-02-filter-segment');
});

test('a code already taken and an empty name are refused at their fields', async () => {
  const page = w.page;
  await page.getByRole('link', { name: 'All segments' }).click();
  await page.getByRole('link', { name: 'New segment' }).click();
  await textbox('Name').fill('Second family');
  await textbox('Code').fill('SEGTEST');
  await page.getByRole('button', { name: 'Create segment' }).click();
  const taken = await api('POST', '/segments', { key: tenant.secretKey, body: { name: 'x', code: 'SEGTEST', type: 'FILTER', filters: {} } });
  expect(taken).toMatchObject({ status: 409, body: { attribute: 'code' } });
  expect(await waitForFieldError(textbox('Code'))).toBe(String(taken.body.message).replace(/^code: /, ''));
  await screenshot(page, 'segments-03-refused-at-field');

  await textbox('Code').fill('');
  await textbox('Name').fill('');
  await page.getByRole('button', { name: 'Create segment' }).click();
  expect(await waitForFieldError(textbox('Name'))).toBeTruthy();
  expect(w.problems).toEqual([expect.stringContaining('status of 409'), expect.stringContaining('status of 400')]);
  w.problems.length = 0;
  expect((await call('GET', '/segments')).paging.total).toBe(1);
});

test('a STATIC segment of picked contacts: two, then one removed', async () => {
  const page = w.page;
  await page.getByRole('link', { name: 'All segments' }).click();
  await page.getByRole('link', { name: 'New segment' }).click();
  await page.getByRole('heading', { name: 'New segment' }).waitFor();
  await textbox('Name').fill('VIP picks');
  await page.getByRole('radio', { name: 'Static list' }).check();
  await choose(page, page, 'Add a contact', 'Anna Segtest (SEG-1)', 'Anna');
  await choose(page, page, 'Add a contact', 'Clara Other (SEG-3)', 'Clara');
  await page.getByTestId('member-count').getByText('2 contacts').waitFor();
  await page.getByRole('button', { name: 'Create segment' }).click();
  await page.getByRole('heading', { name: 'Segment: VIP picks' }).waitFor();
  staticId = idOfPage();
  expect(await call('GET', `/segments/${staticId}`)).toMatchObject({ type: 'STATIC', contact_count: 2, filters: null });
  await page.getByTestId('preview-total').getByText('2 contacts').waitFor();

  await page.getByRole('button', { name: 'Remove Anna Segtest (SEG-1)' }).click();
  await page.getByTestId('member-count').getByText('1 contact').waitFor();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('preview-total').getByText('1 contact').waitFor();
  expect((await call('GET', `/segments/${staticId}`)).contact_count).toBe(1);
  expect((await call('GET', `/segments/${staticId}/contacts`)).content.map((c: { id: string }) => c.id)).toEqual([contacts['SEG-3']]);
  expect(await previewNames()).toEqual(['Clara Other']);
  expect(await page.getByTestId('member').allInnerTexts()).toEqual([expect.stringContaining('Clara Other (SEG-3)')]);
  await screenshot(page, 'segments-04-static-segment');

  await page.getByRole('link', { name: 'All segments' }).click();
  const rows = page.getByTestId('segment-row');
  await rows.nth(1).waitFor();
  expect(await rows.allInnerTexts()).toEqual([expect.stringMatching(/^Segtest family\s+SEGTEST\s+FILTER\s+resolved when read/), expect.stringMatching(/^VIP picks\s+—\s+STATIC\s+1\s/)]);
  await screenshot(page, 'segments-05-list');
});

test('the plan page offers the new segments', async () => {
  const page = w.page;
  await tab('Plans').click();
  await page.getByRole('link', { name: 'New plan' }).click();
  await page.getByRole('heading', { name: 'New plan' }).waitFor();
  await page.getByRole('combobox', { name: 'Segments', exact: true }).click();
  await page.getByRole('option', { name: 'VIP picks (1 contact)', exact: true }).waitFor();
  await page.getByRole('option', { name: 'Segtest family (filter)', exact: true }).waitFor();
  await page.keyboard.press('Escape');
});

test('delete: refused while a plan sends to it, then done after a confirmation', async () => {
  const page = w.page;
  const plan = (await call('POST', '/communication_plans', {
    name: 'VIP news', start_date: Math.floor(Date.now() / 1000) + 86_400, preferred_channel: 'EMAIL', frequency: '0 9 * * 1', segments: [staticId],
    contents: [{ language: 'eng', subject: 'News', plain_content: 'Hello' }],
  })).id;
  // Through the tab (a reload would mean logging in again).
  await tab('Segments').click();
  await page.getByTestId('segment-row').getByRole('link', { name: 'VIP picks' }).click();
  await page.getByRole('heading', { name: 'Segment: VIP picks' }).waitFor();
  await page.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete “VIP picks”?' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  const inUse = await api('DELETE', `/segments/${staticId}`, { key: tenant.secretKey });
  expect(inUse.status).toBe(409);
  await dialog.getByRole('alert').getByText(String(inUse.body.message)).waitFor();
  await screenshot(page, 'segments-06-delete-refused');
  expect(w.problems).toEqual([expect.stringContaining('status of 409')]);
  w.problems.length = 0;

  await call('DELETE', `/communication_plans/${plan}`);
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await page.getByTestId('segment-row').first().waitFor();
  expect(await page.getByTestId('segment-row').allInnerTexts()).toEqual([expect.stringMatching(/^Segtest family/)]);
  expect((await api('GET', `/segments/${staticId}`, { key: tenant.secretKey })).status).toBe(404);
});

test('tablet width: no sideways scrolling on the list and a segment', async () => {
  const page = w.page;
  await page.setViewportSize({ width: 768, height: 1024 });
  expect(await scrollsSideways(page)).toBe(false);
  await page.getByTestId('segment-row').getByRole('link', { name: 'Segtest family' }).click();
  await page.getByTestId('preview-total').waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, 'segments-07-tablet-segment');
  await page.getByRole('link', { name: 'All segments' }).click();
  await page.getByRole('link', { name: 'New segment' }).click();
  await page.getByRole('radio', { name: 'Static list' }).check();
  await page.getByRole('combobox', { name: 'Add a contact', exact: true }).waitFor();
  expect(await scrollsSideways(page)).toBe(false);
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
