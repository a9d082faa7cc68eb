// Helpers of the Reports and analytics browser test (e2e/console-reports.e2e.ts): a tenant whose
// admin receives reports at a real SMTP server, and a few purchases through the API (two at a
// venue, one at its merchant's till, each with an award) for the previews and the charts.
import type { Locator, Page } from 'playwright-core';
import { startSmtpSink } from '../test/communications/helpers';
import { buyer, unit, unique } from '../test/analytics/setup';
import { createId } from '../test/money/helpers';
import { api } from '../test/support/api';
import type { Tenant } from '../test/support/tenants';

export type Sink = Awaited<ReturnType<typeof startSmtpSink>>;

/** The admin gets an e-mail address; the tenant mails through an SMTP integration to a sink of the test's (docs/reports.md "Mail transport"). */
export async function mailReportsToSink(t: Tenant, email: string): Promise<Sink> {
  const sink = await startSmtpSink();
  const users = await api('GET', `/users?username=${encodeURIComponent(t.admin.username)}`, { key: t.secretKey });
  const set = await api('PUT', `/users/${users.body.content[0].id}`, { key: t.secretKey, body: { email } });
  if (set.status !== 200) throw new Error(`PUT /users: ${set.status} ${set.text}`);
  await createId(t.secretKey, '/integrations', {
    name: 'Reports SMTP', channel: 'EMAIL', provider: 'SMTP', settings: { host: '127.0.0.1', port: sink.port, secure: false, from_address: 'reports@shop.test' },
  });
  return sink;
}

export interface Seeded {
  merchant: string;
  venue: string;
  /** Total amounts as sent, and what the page must show for them. */
  purchases: Array<{ reference: string; total: string; shown: string; at: number }>;
}

/** Harbour Cafe (MERCHANT) with Harbour Pier (VENUE) below it; three purchases in the last two days, each earning one award. */
export async function seedPurchases(key: string): Promise<Seeded> {
  const cafe = await unit(key, 'Harbour Cafe', 'MERCHANT');
  const pier = await unit(key, 'Harbour Pier', 'VENUE', cafe.id);
  const now = Math.floor(Date.now() / 1000);
  const ann = await buyer(key, now - 30 * 86400);
  const made = [
    { total: '1234.5', shown: '1,234.50', at: now - 2 * 86400, tap: { outlet_tap: { code: pier.tap } } },
    { total: '12', shown: '12.00', at: now - 86400, tap: { outlet_tap: { code: pier.tap } } },
    { total: '40.25', shown: '40.25', at: now - 600, tap: { merchant_tap: { code: cafe.tap } } },
  ];
  const purchases = [];
  for (const p of made) {
    const reference = unique('POS');
    await createId(key, '/purchases', {
      contact_id: ann.contactId, reference_number: reference, performed_on: p.at,
      products: [{ product_sku: 'SKU-1', net_amount: p.total, tax_amount: 0, total_amount: p.total, quantity: 1 }],
      ...p.tap,
    });
    purchases.push({ reference, total: p.total, shown: p.shown, at: p.at });
  }
  return { merchant: 'Harbour Cafe', venue: 'Harbour Pier', purchases };
}

/** A Mantine multi-select: open it and pick each option in turn (the order is the columns' order). */
export async function pickAll(page: Page, label: string, options: string[]): Promise<void> {
  const input = page.getByRole('combobox', { name: label, exact: true });
  await input.click();
  for (const option of options) await page.getByRole('option', { name: option, exact: true }).click();
  await input.press('Escape');
}

/** A table's body as text cells, row by row. */
export const tableCells = (table: Locator) =>
  table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('th, td')).map((c) => (c as unknown as { innerText: string }).innerText.trim())));

/** A Mantine segmented control's option (its radio is hidden; its label is what a user clicks). */
export async function pickSegment(page: Page, name: string): Promise<void> {
  const id = await page.getByRole('radio', { name, exact: true }).getAttribute('id');
  await page.locator(`label[for="${id}"]`).click();
}
