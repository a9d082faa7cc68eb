// Reports and analytics (docs/console.md "Reports and analytics") in headless Chromium: purchases
// made through the API, previewed in the console (a refused filter shown at its field first), run
// to the user's e-mail as CSV and followed in the runs list to SENT, the CSV read back from a real
// SMTP server, then as PDF (a PDF file in the mail); the analytics charts drawn from the same
// purchases, their table view equal to the API's numbers, the units below as more series, a window
// the API refuses shown at its field.
import type { ParsedMail } from 'mailparser';
import { eventually } from '../test/communications/helpers';
import { parseCsv } from '../test/reports/csv';
import { api } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { choose, ensureConsoleBuilt, fieldError, openSignedIn, screenshot as fullPage, scrollsSideways, type Watched } from './console-support';
import { mailReportsToSink, pickAll, pickSegment, seedPurchases, tableCells, type Seeded, type Sink } from './console-reports-support';
import type { Page } from 'playwright-core';

let tenant: Tenant;
let w: Watched;
let sink: Sink;
let seeded: Seeded;
const EMAIL = `reports-${Date.now().toString(36)}@shop.test`;
const COLUMNS = ['Number', 'Reference number', 'Total amount', 'Outlet'];

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console reports');
  sink = await mailReportsToSink(tenant, EMAIL);
  seeded = await seedPurchases(tenant.secretKey);
  w = await openSignedIn(tenant.admin, '/reports', 'Reports and analytics');
}, 120_000);

afterAll(async () => {
  await w?.browser.close();
  await sink?.close();
});

/** From the top of the page: a full-page shot of a scrolled page draws the fixed header in the middle. */
const screenshot = (page: Page, name: string) => fullPage(page, `reports-${name}`);

/** The API's own answer to the same preview the console asks for. */
const apiPreview = (body: object) => api('GET', `/reports/purchases/preview?body=${encodeURIComponent(JSON.stringify(body))}`, { key: tenant.secretKey });

test('previews the purchases report: a filter the API refuses is shown at its field, then the rows', async () => {
  const page = w.page;
  await page.getByText('Choose a report').waitFor();
  const catalogue = page.getByRole('navigation', { name: 'Report catalogue' });
  expect(await catalogue.getByRole('link').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining('Contacts'), expect.stringContaining('Purchases')]));
  await screenshot(page, '01-catalogue');
  await catalogue.getByRole('link', { name: /^Purchases/ }).click();
  await page.getByRole('heading', { name: 'Purchases', exact: true }).waitFor();

  await choose(page, page, 'Filter 1 column', 'Total amount');
  const value = page.getByRole('textbox', { name: 'Filter 1 value' });
  await value.fill('about ten');
  await pickAll(page, 'Columns', COLUMNS);
  await page.getByRole('button', { name: 'Preview' }).click();
  const refused = await apiPreview({ filters_set: [{ key: 'total_amount', value: 'about ten' }] });
  expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', attribute: 'filters_set.0.value' });
  await eventually(async () => (await value.getAttribute('aria-invalid')) === 'true', 10_000, 'the value field marked invalid');
  expect(await fieldError(value)).toBe(String(refused.body.message).replace(/^filters_set\.0\.value: /, ''));
  expect(await fieldError(page.getByRole('combobox', { name: 'Filter 1 column' }))).toBeNull();
  await screenshot(page, '02-filter-refused-at-field');
  // Chromium logs the refused request's 400: the one expected complaint.
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;

  await value.fill('10..');
  await page.getByRole('button', { name: 'Preview' }).click();
  const table = page.getByRole('table', { name: 'Preview of Purchases' });
  await table.waitFor();
  const headers = await table.locator('thead th').allInnerTexts();
  expect(headers).toEqual(COLUMNS);
  const rows = await tableCells(table);
  const body = { filters_set: [{ key: 'total_amount', value: '10..' }], columns_set: ['number', 'reference_number', 'total_amount', 'outlet_name'].map((key, i) => ({ key, order: i + 1 })) };
  const expected = (await apiPreview(body)).body.content as Array<{ fields: Array<{ value: unknown }> }>;
  expect(rows).toHaveLength(3);
  expect(rows.map((r) => r[0])).toEqual(expected.map((r) => String(r.fields[0].value)));
  // Amounts exactly as the API has them, grouped, two decimals at least.
  const byReference = Object.fromEntries(rows.map((r) => [r[1], r]));
  for (const p of seeded.purchases) expect(byReference[p.reference][2]).toBe(p.shown);
  expect(rows.filter((r) => r[3] === seeded.venue)).toHaveLength(2);
  expect(rows.filter((r) => r[3] === '—')).toHaveLength(1);
  await screenshot(page, '03-preview');
});

test('runs the report to the e-mail as CSV: the runs list follows it to SENT, and the CSV arrives', async () => {
  const page = w.page;
  expect(await page.getByTestId('run-recipient').innerText()).toBe(EMAIL);
  await page.getByText('Not run yet.').waitFor();
  expect(await page.getByRole('radio', { name: 'CSV' }).isChecked()).toBe(true);
  await page.getByRole('button', { name: 'Run to my e-mail' }).click();
  const row = page.getByTestId('run-row').first();
  await row.waitFor();
  const runId = (await row.getAttribute('data-run-id'))!;
  // No reload: the list reads itself again while the run is PENDING or RUNNING.
  await row.getByTestId('run-state').getByText('SENT').waitFor({ timeout: 60_000 });
  expect(await row.getByTestId('run-rows').innerText()).toBe('3');
  expect(await row.innerText()).toContain('CSV');
  expect(await row.innerText()).toContain(EMAIL);
  await screenshot(page, '04-run-sent');

  const stored = (await api('GET', `/reports/purchases/runs/${runId}`, { key: tenant.secretKey })).body;
  expect(stored).toMatchObject({ state: 'SENT', format: 'CSV', recipient: EMAIL, row_count: 3 });
  const mail = await eventually(async () => sink.mails.find((m: ParsedMail) => m.messageId === `<report-${runId}@backoffice>`), 30_000, 'the report mail');
  expect(mail.to && !Array.isArray(mail.to) && mail.to.text).toBe(EMAIL);
  expect(mail.attachments).toHaveLength(1);
  const [file] = mail.attachments;
  expect(file.filename).toMatch(/^purchases-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...lines] = parseCsv(file.content.toString('utf8').replace(/^\uFEFF/, ''));
  expect(header).toEqual(COLUMNS);
  // The run writes what the preview showed: the same filter and columns.
  expect(lines.map((l) => [l[1], l[2], l[3]]).sort()).toEqual(
    seeded.purchases.map((p, i) => [p.reference, p.total, i < 2 ? seeded.venue : '']).sort(),
  );
});

test('runs it again as PDF: the runs list shows the PDF run SENT above the CSV one, and the mail carries a PDF', async () => {
  const page = w.page;
  const csvRun = (await page.getByTestId('run-row').first().getAttribute('data-run-id'))!;
  await pickSegment(page, 'PDF');
  await page.getByRole('button', { name: 'Run to my e-mail' }).click();
  const row = page.getByTestId('run-row').first();
  await eventually(async () => (await row.getAttribute('data-run-id')) !== csvRun, 15_000, 'the PDF run listed first');
  const runId = (await row.getAttribute('data-run-id'))!;
  await row.getByTestId('run-state').getByText('SENT').waitFor({ timeout: 60_000 });
  expect(await row.innerText()).toContain('PDF');
  expect(await row.getByTestId('run-rows').innerText()).toBe('3');
  expect(await page.getByTestId('run-row').nth(1).getAttribute('data-run-id')).toBe(csvRun);
  await screenshot(page, '12-pdf-run-sent');

  const stored = (await api('GET', `/reports/purchases/runs/${runId}`, { key: tenant.secretKey })).body;
  expect(stored).toMatchObject({ state: 'SENT', format: 'PDF', recipient: EMAIL, row_count: 3 });
  const mail = await eventually(async () => sink.mails.find((m: ParsedMail) => m.messageId === `<report-${runId}@backoffice>`), 30_000, 'the PDF report mail');
  expect(mail.attachments).toHaveLength(1);
  const [file] = mail.attachments;
  expect(file.filename).toMatch(/^purchases-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(file.contentType).toBe('application/pdf');
  expect(file.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(file.size).toBe(stored.byte_count);
});

/** The API's series for the window the page shows (the tenant's zone is UTC). */
async function apiSeries(page: Page, query: string) {
  const day = async (label: string) => page.getByLabel(label, { exact: true }).inputValue();
  const from = Date.parse(`${await day('From')}T00:00:00Z`) / 1000;
  const to = Date.parse(`${await day('Until')}T23:59:59Z`) / 1000;
  const res = await api('GET', `/organisations/${tenant.organisationId}/analytics?from=${from}&to=${to}&${query}`, { key: tenant.secretKey });
  expect(res.status).toBe(200);
  return res.body.content as Array<Record<string, Array<{ timestamp: number; number: number }>> & { organisationName: string }>;
}

test('analytics: charts of purchases, visits and awards drawn from the purchases; the table view shows the API numbers', async () => {
  const page = w.page;
  await page.getByRole('tab', { name: 'Analytics' }).click();
  const purchases = page.getByTestId('metric-purchases');
  await purchases.locator('.recharts-bar-rectangle').first().waitFor();
  // A figure named by its title; the SVG titled, its axes labelled.
  await page.getByRole('figure', { name: 'Purchases per day' }).waitFor();
  const svg = purchases.locator('svg.recharts-surface');
  expect(await svg.locator('title').innerHTML()).toBe('Purchases per day');
  const svgText = await svg.locator('text').allTextContents();
  expect(svgText).toEqual(expect.arrayContaining(['Day (UTC)', 'Purchases']));

  const series = await apiSeries(page, 'metrics=purchases,visits,awards');
  expect(series).toHaveLength(1);
  const sum = (metric: string) => series[0][metric].reduce((s, p) => s + p.number, 0);
  expect([sum('purchases'), sum('visits'), sum('awards')]).toEqual([3, 2, 3]);
  for (const metric of ['purchases', 'visits', 'awards']) {
    const nonZero = series[0][metric].filter((p) => p.number > 0).length;
    expect(await page.getByTestId(`metric-${metric}`).locator('.recharts-bar-rectangle path').count()).toBe(nonZero);
  }
  await screenshot(page, '05-analytics-charts');

  await pickSegment(page, 'Tables');
  for (const metric of ['purchases', 'visits', 'awards']) {
    const cells = await tableCells(page.getByTestId(`metric-${metric}`).getByRole('table'));
    expect(cells.map((c) => c[1])).toEqual(series[0][metric].map((p) => String(p.number)));
  }
  expect(await page.getByTestId('metric-purchases').getByRole('table').locator('caption').innerText()).toBe('Purchases per day (UTC)');
  await screenshot(page, '06-analytics-table');
});

test('analytics with the units below: one series each; a window the API refuses is shown at From', async () => {
  const page = w.page;
  const below = page.getByRole('switch', { name: 'Include the units below' });
  await below.click();
  // The URL holds the choice: the switch shows it once the navigation is done.
  await eventually(() => below.isChecked(), 10_000, 'the switch on');
  const table = page.getByTestId('metric-visits').getByRole('table');
  await eventually(async () => (await table.locator('thead th').count()) === 4, 15_000, 'three organisations in the table');
  const series = await apiSeries(page, 'metrics=visits&include_children=true');
  expect(await table.locator('thead th').allInnerTexts()).toEqual(['Day', ...series.map((s) => s.organisationName)]);
  expect(series.map((s) => s.organisationName).slice(1)).toEqual([seeded.merchant, seeded.venue]);
  const cells = await tableCells(table);
  expect(cells.map((c) => c.slice(1))).toEqual(series[0].visits.map((_, i) => series.map((s) => String(s.visits[i].number))));
  await screenshot(page, '07-analytics-units-table');
  await pickSegment(page, 'Charts');
  await page.getByTestId('metric-visits').locator('.recharts-line').nth(2).waitFor();
  expect(await page.getByTestId('metric-visits').locator('.recharts-line').count()).toBe(3);
  expect(await page.getByTestId('metric-visits').locator('.recharts-line-dots circle').count()).toBeGreaterThan(0);
  await screenshot(page, '08-analytics-units-chart');

  // By the hour, 60 days are more than the API's 1,000 buckets: its message at From.
  const from = page.getByLabel('From', { exact: true });
  const sixtyDaysAgo = new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10);
  await from.fill(sixtyDaysAgo);
  // The page's choice lives in the address: the next pick builds on it once it is there.
  await eventually(async () => new URL(page.url()).searchParams.get('from') === sixtyDaysAgo, 10_000, 'From in the address');
  await pickSegment(page, 'By hour');
  await eventually(async () => (await from.getAttribute('aria-invalid')) === 'true', 15_000, 'From marked invalid');
  const to = Date.parse(`${await page.getByLabel('Until', { exact: true }).inputValue()}T23:59:59Z`) / 1000;
  const refused = await api('GET', `/organisations/${tenant.organisationId}/analytics?granularity=HOUR&from=${Date.parse(`${sixtyDaysAgo}T00:00:00Z`) / 1000}&to=${to}&metrics=purchases`, { key: tenant.secretKey });
  expect(refused.body).toMatchObject({ code: 'INVALID_REQUEST', attribute: 'from' });
  expect(await fieldError(from)).toBe(String(refused.body.message).replace(/^from: /, ''));
  await screenshot(page, '09-analytics-window-refused');
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;
  await pickSegment(page, 'By day');
  await page.getByTestId('metric-purchases').locator('.recharts-line').first().waitFor();
});

test('works at tablet width without sideways scrolling', async () => {
  const page = w.page;
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.getByTestId('metric-purchases').locator('.recharts-line').first().waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, '10-tablet-analytics');
  await page.getByRole('tab', { name: 'Reports' }).click();
  await page.getByRole('link', { name: /^Purchases/ }).click();
  await page.getByRole('button', { name: 'Preview' }).click();
  await page.getByRole('table', { name: 'Preview of Purchases' }).waitFor();
  await page.getByTestId('run-row').first().waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, '11-tablet-reports');
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
