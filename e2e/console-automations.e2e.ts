// The automation pages in depth: the builder (errors at the field, value pickers), the run history
// (completed and skipped runs, the skip's reason) and the approvals inbox that lets a waiting run
// go on. The template, the webhook and the registrations are set up through the API here;
// e2e/console-marketer.e2e.ts does the whole scenario of issue 24 in the console only.
import type { Locator, Page } from 'playwright-core';
import { eventually } from '../test/communications/helpers';
import { createTenant, type Tenant } from '../test/support/tenants';
import { startReceiver, type Receiver } from '../test/webhooks/receiver';
import { apiCall, choose, ensureConsoleBuilt, openSignedIn, screenshot, type Watched } from './console-support';

let tenant: Tenant;
let w: Watched;
let receiver: Receiver;
const call = (method: string, route: string, body?: unknown) => apiCall(tenant.secretKey, method, route, body);
const person = (first: string, country: string) => ({
  contact_type: 'PERSON', first_name: first, last_name: 'Marketer', email_address: `${first.toLowerCase()}@console.test`,
  addresses: [{ address_line_1: '1 Main St', country_code: country }],
});

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console marketer');
  receiver = await startReceiver();
  await call('POST', '/communication_templates', { name: 'Welcome', code: 'WELCOME', contents: [{ language: 'eng', subject: 'Welcome, {{contact.first_name}}', plain_content: 'Dear {{contact.first_name}}, welcome.' }] });
  await call('POST', '/webhooks', { name: 'Our CRM', method: 'POST', url_endpoint: receiver.url });
  w = await openSignedIn(tenant.admin, '/automations', 'Automations');
});

afterAll(async () => {
  await w?.browser.close();
  await receiver?.close();
});

test('builds "on contact registered in Cyprus: welcome e-mail and webhook", shows an API error at its field, and the run succeeds', async () => {
  const page = w.page;
  await page.getByRole('link', { name: 'New automation' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Cyprus welcome');
  await choose(page, page, 'When this happens', 'Contact registered');

  await choose(page, page, 'Add an action', /^Communicate Customer/, 'Communicate Customer');
  // Each action says what it does, as GET /adaptors words it.
  await page.getByTestId('action-1').getByText("Sends the event's contact a message: e-mail, SMS or in-app.").waitFor();
  const mail = page.getByTestId('action-1');
  await choose(page, mail, 'Template', 'Welcome (WELCOME)');
  await mail.getByRole('button', { name: 'Add a condition' }).click();
  await choose(page, mail, 'Attribute', 'Country', 'Country');
  // The country by its name: nobody has to know that Cyprus is CYP.
  await choose(page, mail, 'Value', 'Cyprus (CYP)', 'Cyprus');

  await choose(page, page, 'Add an action', /^POST Webhook/, 'POST Webhook');
  const hook = page.getByTestId('action-2');
  await page.getByRole('button', { name: 'Save' }).click();
  // The API refuses the webhook action without its webhook; the message is shown at that action.
  await hook.getByRole('alert').waitFor();
  expect(await hook.getByRole('alert').innerText()).toContain('webhook_id is required');
  await screenshot(page, '04-builder-error-at-field');
  // The one expected complaint: Chromium logs the refused request's 400.
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;

  await choose(page, hook, 'Webhook', 'Our CRM (POST ' + receiver.url + ')', 'Our CRM');
  await mail.getByRole('button', { name: 'Use these conditions on every action' }).click();
  await page.getByRole('switch', { name: 'Active' }).check();
  await screenshot(page, '05-builder-filled');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved “Cyprus welcome”').waitFor();

  // What the console stored is what the marketer meant.
  const [auto] = (await call('GET', '/automations?name=Cyprus%20welcome')).content;
  expect(auto).toMatchObject({ life_cycle_state: 'ACTIVE', entity: 'CONTACTS', event: 'REGISTER_CONTACT', action_count: 2 });
  const actions = (await call('GET', `/automations/${auto.id}/actions`)).content;
  expect(actions.map((a: { adaptor_action: string }) => a.adaptor_action)).toEqual(['COMMUNICATE_CUSTOMER', 'POST_WEBHOOK']);
  for (const a of actions) expect(a.action_filters).toEqual([{ filters: [expect.objectContaining({ attribute: 'COUNTRY_CODE', operator: 'EQUAL', value: 'CYP' })] }]);

  const cypriot = (await call('POST', '/contacts', person('Andreas', 'CYP'))).id;
  const greek = (await call('POST', '/contacts', person('Nikos', 'GRC'))).id;

  await page.getByRole('link', { name: 'Run history' }).click();
  await page.getByRole('heading', { name: 'Runs of “Cyprus welcome”' }).waitFor();
  await eventually(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('run').first().waitFor({ timeout: 2_000 }).catch(() => undefined);
    const statuses = await page.getByTestId('run-status').allInnerTexts();
    return statuses.length === 2 && statuses.includes('COMPLETED') && statuses.includes('SKIPPED');
  }, 60_000, 'a COMPLETED and a SKIPPED run in the history');
  const completed = page.getByTestId('run').filter({ has: page.getByText('COMPLETED', { exact: true }).first() }).first();
  expect(await completed.getByRole('row').count()).toBe(3); // header + two actions
  const skipped = page.getByTestId('run').filter({ has: page.getByTestId('run-status').getByText('SKIPPED') });
  expect(await skipped.innerText()).toContain('Conditions not met: Country is …');
  await screenshot(page, '06-run-history');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
  const listed = page.getByTestId('automation-row').filter({ hasText: 'Cyprus welcome' });
  await listed.getByText('SKIPPED').waitFor();
  expect(await listed.innerText()).toContain('Contacts: Contact registered');
  await screenshot(page, '07-automations-list');

  // The webhook reached the receiver for the Cypriot only, and the e-mail was sent to them only.
  expect(receiver.received.map((r) => JSON.parse(r.body).data.entity.id)).toEqual([cypriot]);
  await eventually(async () => (await call('GET', `/communications?contact_id=${cypriot}`)).content[0]?.life_cycle_state === 'SENT', 20_000, 'the welcome e-mail SENT');
  expect((await call('GET', `/communications?contact_id=${greek}`)).content).toEqual([]);
});

test('an approval waiting in the inbox is approved with a comment, and the run goes on', async () => {
  const page = w.page;
  const auto = (await call('POST', '/automations', { name: 'Needs a yes', entity: 'CONTACTS', event: 'REGISTER_CONTACT' })).id;
  await call('POST', `/automations/${auto}/actions`, {
    content: [
      { order: 1, adaptor: 'APPROVAL_REQUESTS', adaptor_action: 'REQUEST_APPROVAL', adaptor_action_parameters: [{ parameter_key: 'approval_entity_type', parameter_from_value: 'Welcome gift' }] },
      { order: 2, adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'UPDATE_CONTENT', adaptor_action_parameters: [{ parameter_key: 'custom_field_key', parameter_from_value: 'gift' }, { parameter_key: 'custom_field_value', parameter_from_value: 'yes' }] },
    ],
  });
  await call('PUT', `/automations/${auto}`, { state: 'ACTIVE' });
  const contact = (await call('POST', '/contacts', person('Maria', 'CYP'))).id;

  // The run history says the run waits for its approval (the list, opened afresh, has the new automation).
  const nav = page.getByRole('navigation', { name: 'Sections' });
  await nav.getByRole('link', { name: 'Approvals' }).click();
  await nav.getByRole('link', { name: 'Automations' }).click();
  await page.getByTestId('automation-row').filter({ hasText: 'Needs a yes' }).getByRole('link', { name: 'History' }).click();
  await page.getByRole('heading', { name: 'Runs of “Needs a yes”' }).waitFor();
  await eventually(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    return (await page.getByTestId('run-status').allInnerTexts()).includes('WAITING FOR APPROVAL');
  }, 30_000, 'the run waiting for its approval');

  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Approvals' }).click();
  const row = page.getByTestId('approval-row').filter({ hasText: 'Needs a yes' });
  await eventually(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    return (await row.count()) === 1;
  }, 30_000, 'the approval request in the inbox');
  await screenshot(page, '08-approvals-inbox');
  await row.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('textbox', { name: 'Comment' }).fill('Fine by marketing');
  await page.getByRole('dialog').getByRole('button', { name: 'Approve' }).click();
  await page.getByText('Approved', { exact: true }).waitFor();

  await eventually(async () => {
    const fields = (await call('GET', `/contacts/${contact}`)).custom_fields as Array<{ key: string; value: string }>;
    return fields.some((f) => f.key === 'gift' && f.value === 'yes');
  }, 30_000, 'the action after the approval');
  const [record] = (await call('GET', `/adaptors/APPROVAL_REQUESTS/actions/REQUEST_APPROVAL/records?automation_id=${auto}`)).content;
  expect(record.status).toBe('APPROVED');
  expect(record.record_attributes).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'notes', value: 'Fine by marketing' })]));

  // The run history has the run COMPLETED: approved, then the content updated.
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
  await page.getByTestId('automation-row').filter({ hasText: 'Needs a yes' }).getByRole('link', { name: 'History' }).click();
  const run = page.getByTestId('run');
  await eventually(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    return (await page.getByTestId('run-status').allInnerTexts()).join() === 'COMPLETED';
  }, 30_000, 'the run COMPLETED');
  expect(await run.getByRole('row').count()).toBe(3); // header + the approval + the update
  expect(await run.innerText()).toContain('APPROVED');
  await screenshot(page, '09-run-history-approved');
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
