// Simulations and performance in the console (docs/console.md "Simulations and performance"), in
// headless Chromium, through the console only: Try it on a matching and a non-matching contact, a
// replay of the last 7 days, the list's 7-day runs and failures, the performance chart. The API
// sets up the data (the automation, the contacts) and gives the numbers the page must show.
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../test/communications/helpers';
import { createTenant, type Tenant } from '../test/support/tenants';
import { startReceiver, type Receiver } from '../test/webhooks/receiver';
import { pickSegment, tableCells } from './console-reports-support';
import { api } from '../test/support/api';
import { apiCall, choose, ensureConsoleBuilt, openSignedIn, screenshot, scrollsSideways, settled, waitForFieldError, type Watched } from './console-support';

let tenant: Tenant;
let w: Watched;
let receiver: Receiver;
let automation: string;
const contacts: Record<string, string> = {};
const call = (method: string, route: string, body?: unknown) => apiCall(tenant.secretKey, method, route, body);
const person = (first: string, country: string) => ({
  contact_type: 'PERSON', first_name: first, last_name: 'Simulated', email_address: `${first.toLowerCase()}@console.test`,
  addresses: [{ address_line_1: '1 Main St', country_code: country }],
});
const inCyprus = [{ filters: [{ attribute: 'COUNTRY_CODE', operator: 'EQUAL', value: 'CYP' }] }];
const label = (state: string) => state.replace(/_/g, ' ');

/** The last `days` UTC days, today included, as the console's pages count them: epoch seconds. */
function lastDays(days: number) {
  const today = Math.floor(Date.now() / 86_400_000) * 86_400;
  return { from: today - (days - 1) * 86_400, to: today + 86_400 - 1 };
}

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console simulations');
  receiver = await startReceiver();
  await call('POST', '/communication_templates', { name: 'Welcome', code: 'WELCOME', contents: [{ language: 'eng', subject: 'Welcome, {{contact.first_name}}', plain_content: 'Dear {{contact.first_name}}, welcome.' }] });
  const template = (await call('GET', '/communication_templates?code=WELCOME')).content[0].id;
  const webhook = (await call('POST', '/webhooks', { name: 'Our CRM', method: 'POST', url_endpoint: receiver.url })).id;
  // INACTIVE: everything before the performance test is judged before activation.
  automation = (await call('POST', '/automations', { name: 'Cyprus welcome', entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: 'INACTIVE' })).id;
  await call('POST', `/automations/${automation}/actions`, {
    content: [
      { order: 1, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: webhook }], action_filters: inCyprus },
      { order: 2, adaptor: 'COMMUNICATIONS', adaptor_action: 'COMMUNICATE_CUSTOMER', adaptor_action_parameters: [{ parameter_key: 'template_id', parameter_from_value: template }], action_filters: inCyprus },
    ],
  });
  contacts.andreas = (await call('POST', '/contacts', person('Andreas', 'CYP'))).id;
  contacts.nikos = (await call('POST', '/contacts', person('Nikos', 'GRC'))).id;
  w = await openSignedIn(tenant.admin, '/automations', 'Automations');
});

afterAll(async () => {
  await w?.browser.close();
  await receiver?.close();
});

async function openTab(page: Page, name: string, tab: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
  await page.getByTestId('automation-row').filter({ hasText: name }).getByRole('link', { name }).click();
  await page.getByRole('heading', { name: `Automation: ${name}` }).waitFor();
  await page.getByRole('tab', { name: tab }).click();
}

/** The verdict view's actions: state, reason, each filter's actual value and pass, as the page shows them. */
async function shownVerdict(verdict: Locator) {
  const actions = verdict.getByTestId('action-verdict');
  const out = [];
  for (let i = 0; i < (await actions.count()); i++) {
    const a = actions.nth(i);
    out.push({
      // Badges are written in capitals by their style: their text is what the page says.
      verdict: await a.getByTestId('action-verdict-state').textContent(),
      actual: await a.getByTestId('filter-actual').allInnerTexts(),
      passed: await a.getByTestId('filter-passed').allTextContents(),
    });
  }
  return out;
}

/** The same, from the API's verdict. */
const apiVerdict = (run: { actions: Array<{ verdict: string; filters: Array<{ actual: unknown; passed: boolean }> }> }) =>
  run.actions.map((a) => ({ verdict: label(a.verdict), actual: a.filters.map((f) => String(f.actual)), passed: a.filters.map((f) => (f.passed ? 'Yes' : 'No')) }));

test('Try it on an inactive automation: a matching and a non-matching contact show the API\'s verdicts, actual values and rendered effects', async () => {
  const page = w.page;
  await openTab(page, 'Cyprus welcome', 'Try it');
  await choose(page, page, 'Customer', /^Andreas Simulated/, 'Andreas');
  await page.getByRole('button', { name: 'Try it' }).click();
  const verdict = page.getByTestId('verdict');
  await verdict.waitFor();
  const yes = (await call('POST', `/automations/${automation}/simulations`, { entity_id: contacts.andreas })).runs[0];
  expect(yes.would_run).toBe(true);
  expect(await verdict.getByTestId('verdict-would-run').textContent()).toBe('Would run');
  expect(await shownVerdict(verdict)).toEqual(apiVerdict(yes));
  expect(await shownVerdict(verdict)).toEqual([
    { verdict: 'WOULD RUN', actual: ['CYP'], passed: ['Yes'] },
    { verdict: 'WOULD RUN', actual: ['CYP'], passed: ['Yes'] },
  ]);
  // The webhook request as it would be signed (its created_on is the moment's), and the message as rendered.
  const [hook, mail] = [yes.actions[0].effect, yes.actions[1].effect];
  const effects = verdict.getByTestId('effect');
  expect(await effects.nth(0).getByTestId('effect-request').innerText()).toBe(`${hook.method} ${hook.url}`);
  const shownBody = JSON.parse(await effects.nth(0).getByTestId('effect-body').innerText());
  expect({ ...shownBody, created_on: 0 }).toEqual({ ...hook.body, created_on: 0 });
  expect(shownBody.data.entity).toEqual({ type: 'CONTACTS', id: contacts.andreas });
  const mailText = await effects.nth(1).innerText();
  expect(mail).toMatchObject({ kind: 'COMMUNICATION', recipient: 'andreas@console.test', subject: 'Welcome, Andreas', content: 'Dear Andreas, welcome.' });
  for (const part of [mail.channel, mail.recipient, mail.subject, mail.content]) expect(mailText).toContain(part);
  await screenshot(page, 'simulations-01-try-it-match');

  await choose(page, page, 'Customer', /^Nikos Simulated/, 'Nikos');
  await page.getByRole('button', { name: 'Try it' }).click();
  await verdict.getByTestId('verdict-would-run').getByText('Would do nothing').waitFor();
  const no = (await call('POST', `/automations/${automation}/simulations`, { entity_id: contacts.nikos })).runs[0];
  expect(await shownVerdict(verdict)).toEqual(apiVerdict(no));
  expect(await shownVerdict(verdict)).toEqual([
    { verdict: 'SKIPPED', actual: ['GRC'], passed: ['No'] },
    { verdict: 'SKIPPED', actual: ['GRC'], passed: ['No'] },
  ]);
  // The API's reason in the builder's words; nothing would be sent.
  expect(await verdict.getByTestId('action-verdict-reason').allInnerTexts()).toEqual(['Conditions not met: Country is …', 'Conditions not met: Country is …']);
  expect(await verdict.getByTestId('effect').count()).toBe(0);
  await screenshot(page, 'simulations-02-try-it-no-match');
  // Nothing was sent or run: the automation is inactive and a simulation performs nothing.
  expect(receiver.received).toEqual([]);
  expect((await call('GET', `/automations/${automation}/runs`)).content).toEqual([]);
});

test('Try it on a purchase automation takes the record\'s id; one the organisation does not have is the API\'s 400 at that field', async () => {
  const page = w.page;
  await call('POST', '/automations', { name: 'Big spender', entity: 'PURCHASES', event: 'PURCHASE_POSTED' });
  await openTab(page, 'Big spender', 'Try it');
  const field = page.getByRole('textbox', { name: 'Record id' });
  const unknown = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';
  await field.fill(unknown);
  await page.getByRole('button', { name: 'Try it' }).click();
  const refused = await api('POST', `/automations/${(await call('GET', '/automations?name=Big%20spender')).content[0].id}/simulations`, { key: tenant.secretKey, body: { entity_id: unknown } });
  expect([refused.status, refused.body.attribute]).toEqual([400, 'entity_id']);
  const shown = await waitForFieldError(field);
  expect(refused.body.message).toContain(shown);
  expect(await page.getByTestId('verdict').count()).toBe(0);
  // The one expected complaint: Chromium logs the refused request's 400.
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;
});

test('a replay of the last 7 days: progress to COMPLETED, the chart\'s days, the per-action table and the samples equal the API\'s summary', async () => {
  const page = w.page;
  await openTab(page, 'Cyprus welcome', 'Replay');
  // The default window is the last 7 days.
  const { from, to } = lastDays(7);
  const day = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 10);
  expect(await page.getByRole('textbox', { name: 'From' }).inputValue()).toBe(day(from));
  expect(await page.getByRole('textbox', { name: 'Until' }).inputValue()).toBe(day(to));
  await page.getByRole('button', { name: 'Start the replay' }).click();
  const replay = page.getByTestId('replay');
  await replay.getByTestId('replay-state').getByText('COMPLETED').waitFor({ timeout: 60_000 });
  const id = new URL(page.url()).searchParams.get('replay');
  const sim = await call('GET', `/automations/${automation}/simulations/${id}`);
  expect(sim).toMatchObject({ state: 'COMPLETED', from_date: from, to_date: to, progress: { events_done: 2, events_total: 2 } });
  expect(await replay.getByTestId('replay-progress').innerText()).toContain(`${sim.progress.events_done} of ${sim.progress.events_total} events judged`);
  expect(await replay.getByTestId('replay-events').innerText()).toBe(String(sim.summary.events));
  expect(await replay.getByTestId('replay-would-run').innerText()).toBe(String(sim.summary.would_run));
  expect([sim.summary.events, sim.summary.would_run]).toEqual([2, 1]);
  await replay.locator('.recharts-bar-rectangle').first().waitFor();
  // The chart draws a bar for each non-zero number of the API's days (events and would run).
  const nonZero = sim.summary.by_day.reduce((n: number, d: { events: number; would_run: number }) => n + (d.events > 0 ? 1 : 0) + (d.would_run > 0 ? 1 : 0), 0);
  expect(await replay.locator('.recharts-bar-rectangle path').count()).toBe(nonZero);
  await screenshot(page, 'simulations-03-replay');

  // The per-action table: each action's counts and skip reasons, in the API's order.
  const rows = replay.getByTestId('replay-action');
  expect(await rows.count()).toBe(sim.summary.by_action.length);
  for (const [i, a] of sim.summary.by_action.entries()) {
    const row = rows.nth(i);
    expect(await row.getByTestId('replay-action-would-run').innerText()).toBe(String(a.would_run));
    expect(await row.getByTestId('replay-action-skipped').innerText()).toBe(String(a.skipped));
    expect(await row.getByTestId('replay-action-would-fail').innerText()).toBe(String(a.would_fail));
    expect(await row.getByTestId('replay-action-reasons').innerText()).toBe(a.skip_reasons.map((r: { count: number }) => `${r.count} × Conditions not met: Country is …`).join('\n') || '—');
    expect([a.would_run, a.skipped, a.skip_reasons.length]).toEqual([1, 1, 1]);
  }

  // The days as a table: every day of the window, the API's numbers where it has the day, 0 elsewhere.
  await pickSegment(page, 'Table');
  const cells = await tableCells(replay.getByTestId('metric-replay-days').getByRole('table'));
  expect(cells).toHaveLength(7);
  const byDay = new Map<number, { events: number; would_run: number }>(sim.summary.by_day.map((d: { timestamp: number; events: number; would_run: number }) => [d.timestamp, d]));
  const expected = Array.from({ length: 7 }, (_, i) => from + i * 86_400).map((t) => [String(byDay.get(t)?.events ?? 0), String(byDay.get(t)?.would_run ?? 0)]);
  expect(cells.map((c) => c.slice(1))).toEqual(expected);
  expect(cells.reduce((n, c) => n + Number(c[1]), 0)).toBe(sim.summary.events);

  // The samples: each one's verdict as the API recorded it.
  expect(sim.samples).toHaveLength(2);
  const samples = replay.getByTestId('replay-samples');
  for (const [i, sample] of sim.samples.entries()) {
    await samples.getByRole('button', { name: new RegExp(`^${i + 1}\\. `) }).click();
    const shown = samples.getByTestId('verdict').nth(i);
    await shown.waitFor();
    expect(await shownVerdict(shown)).toEqual(apiVerdict(sample));
  }
  await screenshot(page, 'simulations-04-replay-table-samples');

  // The replay is in the list of this automation's replays, with its numbers.
  const listed = page.getByTestId('replay-row');
  expect(await listed.count()).toBe(1);
  expect((await tableCells(page.getByRole('table').filter({ has: listed }))).map((c) => c.slice(2))).toEqual([['COMPLETED', '2', '1']]);
  expect(receiver.received).toEqual([]);
});

test('once live: the list\'s 7-day runs and failures and the performance chart\'s totals equal the API\'s', async () => {
  const page = w.page;
  // A second automation whose webhook is gone: its runs fail.
  const gone = (await call('POST', '/webhooks', { name: 'Gone', method: 'POST', url_endpoint: receiver.url })).id;
  const failing = (await call('POST', '/automations', { name: 'Broken hook', entity: 'CONTACTS', event: 'REGISTER_CONTACT', life_cycle_state: 'INACTIVE' })).id;
  await call('POST', `/automations/${failing}/actions`, { content: [{ order: 1, adaptor: 'WEBHOOKS', adaptor_action: 'POST_WEBHOOK', adaptor_action_parameters: [{ parameter_key: 'webhook_id', parameter_from_value: gone }] }] });
  await call('DELETE', `/webhooks/${gone}`);
  await call('PUT', `/automations/${failing}`, { state: 'ACTIVE' });

  // Activated in the list, as a marketer would after the replay.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
  // The switch follows the API's answer (the list is read again), so it is clicked, not checked.
  await page.getByRole('switch', { name: 'Cyprus welcome active' }).click();
  await page.getByText('“Cyprus welcome” is active').waitFor();
  expect((await call('GET', `/automations/${automation}`)).life_cycle_state).toBe('ACTIVE');

  await call('POST', '/contacts', person('Maria', 'CYP'));
  await call('POST', '/contacts', person('Kostas', 'GRC'));
  const week = lastDays(7);
  const performance = (id: string, window = week) => call('GET', `/automations/${id}/performance?from_date=${window.from}&to_date=${window.to}`);
  const sum = (perf: { buckets: Array<{ runs: Record<string, number> }> }, state?: string) =>
    perf.buckets.reduce((n, b) => n + (state ? b.runs[state] : Object.values(b.runs).reduce((m, v) => m + v, 0)), 0);
  await eventually(async () => {
    const [ok, bad] = [await performance(automation), await performance(failing)];
    return sum(ok, 'COMPLETED') === 1 && sum(ok, 'SKIPPED') === 1 && sum(bad, 'FAILED') === 2;
  }, 60_000, 'a completed and a skipped run, and two failed ones');

  // The list, opened afresh, counts each automation's last 7 days as the API does.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Approvals' }).click();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
  for (const [name, id] of [['Cyprus welcome', automation], ['Broken hook', failing]]) {
    const row = page.getByTestId('automation-row').filter({ hasText: name });
    await row.getByTestId('recent-runs').waitFor();
    const perf = await performance(id);
    expect([await row.getByTestId('recent-runs-all').innerText(), await row.getByTestId('recent-runs-failed').innerText()]).toEqual([String(sum(perf)), String(sum(perf, 'FAILED'))]);
  }
  expect(await page.getByTestId('automation-row').filter({ hasText: 'Cyprus welcome' }).getByTestId('recent-runs').innerText()).toBe('2 runs, 0 failed');
  expect(await page.getByTestId('automation-row').filter({ hasText: 'Broken hook' }).getByTestId('recent-runs').innerText()).toBe('2 runs, 2 failed');
  await settled(w);
  // The activation's notice gone first: it would cover the screenshots' right side.
  await page.getByText('“Cyprus welcome” is active').waitFor({ state: 'hidden', timeout: 15_000 });
  await screenshot(page, 'simulations-05-list-last-7-days');

  // The performance tab: the last 30 days by default; its totals and its days are the API's.
  await openTab(page, 'Cyprus welcome', 'Performance');
  const month = lastDays(30);
  const perf = await performance(automation, month);
  const totals = page.getByTestId('performance-totals');
  await totals.waitFor();
  expect(await page.getByTestId('performance-total-all').innerText()).toBe(String(sum(perf)));
  for (const state of ['COMPLETED', 'SKIPPED', 'FAILED', 'REJECTED', 'WAITING_FOR_APPROVAL']) {
    expect(await page.getByTestId(`performance-total-${state}`).innerText()).toBe(String(sum(perf, state)));
  }
  expect(await totals.innerText()).toBe('2 runs: 1 completed, 1 skipped, 0 failed, 0 rejected, 0 waiting for approval.');
  const chart = page.getByTestId('metric-performance-runs');
  await chart.locator('.recharts-bar-rectangle').first().waitFor();
  // A part of a stacked bar for each non-zero outcome of each of the API's days.
  const parts = perf.buckets.reduce((n: number, b: { runs: Record<string, number> }) => n + Object.values(b.runs).filter((v) => v > 0).length, 0);
  expect(await chart.locator('.recharts-bar-rectangle path').count()).toBe(parts);
  await screenshot(page, 'simulations-06-performance');

  await pickSegment(page, 'Tables');
  const runs = await tableCells(page.getByTestId('metric-performance-runs').getByRole('table'));
  expect(runs).toHaveLength(30);
  const buckets = new Map<number, { runs: Record<string, number>; event_to_effect: { p50: number | null; p95: number | null } }>(perf.buckets.map((b: { timestamp: number }) => [b.timestamp, b]));
  const days = Array.from({ length: 30 }, (_, i) => month.from + i * 86_400);
  expect(runs.map((c) => c.slice(1))).toEqual(days.map((t) => ['COMPLETED', 'SKIPPED', 'FAILED', 'REJECTED', 'WAITING_FOR_APPROVAL'].map((s) => String(buckets.get(t)?.runs[s] ?? 0))));
  // Time to effect: the API's seconds, exactly; — for a day with no completed action.
  const latency = await tableCells(page.getByTestId('metric-performance-latency').getByRole('table'));
  const shown = (v: number | null | undefined) => {
    if (v === null || v === undefined) return '—';
    const [whole, fraction] = String(v).split('.');
    return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${fraction ? `.${fraction}` : ''}`;
  };
  expect(latency.map((c) => c.slice(1))).toEqual(days.map((t) => [shown(buckets.get(t)?.event_to_effect.p50), shown(buckets.get(t)?.event_to_effect.p95)]));
  expect(latency.some((c) => c[1] !== '—')).toBe(true);
  await screenshot(page, 'simulations-07-performance-tables');

  // At tablet width the tabs' forms wrap and their tables scroll inside themselves, not the page.
  await page.setViewportSize({ width: 768, height: 900 });
  for (const tab of ['Performance', 'Replay', 'Try it']) {
    await page.getByRole('tab', { name: tab }).click();
    await settled(w);
    expect([tab, await scrollsSideways(page)]).toEqual([tab, false]);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
