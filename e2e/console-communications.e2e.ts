// The Communications pages (docs/console.md "Communications") in headless Chromium: a template
// with two languages, one of them refused by the API at its field, previewed for a contact as the
// API renders it; a plan whose cron shows its next ticks on the organisation's clock, refused at a
// date field, saved as a draft, posted and taken back; the sent messages with their filters and a
// message's page. The API is used for what this test does not walk through (a segment, made in
// console-segments.e2e.ts; the contact and the organisation's time zone) and to check what the
// console did.
import { eventually } from '../test/communications/helpers';
import { api } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { apiCall, choose, ensureConsoleBuilt, fieldError, openSignedIn, screenshot, scrollsSideways, waitForFieldError, type Watched } from './console-support';

let tenant: Tenant;
let w: Watched;
let contactId: string;
let templateId: string;
const ZONE = 'Asia/Nicosia';

const call = (method: string, route: string, body?: unknown) => apiCall(tenant.secretKey, method, route, body);

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console communications');
  await call('PUT', '/settings', { time_zone: ZONE });
  contactId = (await call('POST', '/contacts', { contact_type: 'PERSON', code: 'PREVIEW-1', first_name: 'Sofia', last_name: 'Preview', email_address: 'sofia@console.test', preferred_language_code: 'ell' })).id;
  await call('POST', '/segments', { name: 'Newsletter readers', type: 'STATIC', contact_ids: [contactId] });
  w = await openSignedIn(tenant.admin, '/automations', 'Automations');
});

afterAll(async () => {
  await w?.browser.close();
});

const nav = () => w.page.getByRole('navigation', { name: 'Sections' });
// Not exact: a tab whose content the API refused also says so ("has an error").
const tab = (name: string) => w.page.getByRole('tab', { name });

test('a template in two languages: a placeholder the API refuses is shown at its field; the preview is the API\'s rendering for a contact', async () => {
  const page = w.page;
  await nav().getByRole('link', { name: 'Communications' }).click();
  await page.getByRole('heading', { name: 'Communications', exact: true }).waitFor();
  await page.getByTestId('message-total').getByText('0 communications').waitFor();
  await screenshot(page, 'communications-01-empty');

  await tab('Templates').click();
  await page.getByText('No template yet.').waitFor();
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByRole('heading', { name: 'New template' }).waitFor();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Welcome pack');
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill('WELCOME-PACK');

  // The placeholders listed are the API's (stated in its document's content descriptions).
  const doc = JSON.stringify((await api('GET', '/openapi.json')).body);
  const stated = /Placeholders: ((?:\{\{contact\.\w+\}\}(?:, )?)+);/.exec(doc)?.[1].split(', ');
  expect(stated?.length).toBeGreaterThan(5);
  expect(await page.getByTestId('placeholder').getByRole('button').allInnerTexts()).toEqual(stated);

  // English, with a placeholder inserted from the list where the cursor is.
  const editor = page.getByTestId('content-editor');
  const subject = editor.getByRole('textbox', { name: 'Subject', exact: true });
  await subject.fill('Welcome, ');
  await page.getByRole('button', { name: 'Insert {{contact.first_name}}' }).click();
  expect(await subject.inputValue()).toBe('Welcome, {{contact.first_name}}');
  await editor.getByRole('textbox', { name: 'Plain text', exact: true }).fill('Dear {{contact.first_name}}, your code is {{contact.code}}.');
  await editor.getByRole('textbox', { name: 'HTML', exact: true }).fill('<p>Dear <b>{{contact.first_name}}</b>, welcome.</p>');
  await page.getByRole('switch', { name: /Show the HTML/ }).check();
  await page.frameLocator('iframe[title="HTML of the English content"]').getByText('{{contact.first_name}}').waitFor();

  // Greek, with a placeholder the API does not know.
  await choose(page, page, 'Add a language', 'Greek', 'Gre');
  await tab('Greek').waitFor();
  await editor.getByRole('textbox', { name: 'Subject', exact: true }).fill('Καλώς ήρθες, {{contact.first_name}}');
  await editor.getByRole('textbox', { name: 'Plain text', exact: true }).fill('Γεια σου {{contact.password}}');
  await tab('English').click();
  await page.getByRole('button', { name: 'Create template' }).click();

  // The API's message, at the Greek plain text (its tab opened by the refusal).
  const refused = await api('POST', '/communication_templates', {
    key: tenant.secretKey,
    body: { name: 'x', contents: [{ language: 'eng', plain_content: 'x' }, { language: 'ell', plain_content: 'Γεια σου {{contact.password}}' }] },
  });
  expect(refused.body).toMatchObject({ attribute: 'contents.1.plain_content' });
  const plain = editor.getByRole('textbox', { name: 'Plain text', exact: true });
  expect(await waitForFieldError(plain)).toBe(String(refused.body.message).replace(/^contents\.1\.plain_content: /, ''));
  expect(await tab('Greek').getAttribute('aria-selected')).toBe('true');
  expect(await plain.inputValue()).toBe('Γεια σου {{contact.password}}');
  await screenshot(page, 'communications-02-template-refused-at-field');
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;

  await plain.fill('Γεια σου {{contact.first_name}}');
  await page.getByRole('button', { name: 'Create template' }).click();
  await page.getByRole('heading', { name: 'Template: Welcome pack' }).waitFor();
  templateId = new URL(page.url()).pathname.split('/').pop()!;
  expect(await call('GET', `/communication_templates/${templateId}`)).toMatchObject({
    name: 'Welcome pack',
    code: 'WELCOME-PACK',
    contents: [
      { language: 'eng', subject: 'Welcome, {{contact.first_name}}', plain_content: 'Dear {{contact.first_name}}, your code is {{contact.code}}.', rich_content: '<p>Dear <b>{{contact.first_name}}</b>, welcome.</p>' },
      { language: 'ell', subject: 'Καλώς ήρθες, {{contact.first_name}}', plain_content: 'Γεια σου {{contact.first_name}}', rich_content: null },
    ],
  });

  // The preview: the API renders the saved template for Sofia (she prefers Greek); nothing is sent.
  const preview = page.getByRole('form', { name: 'Preview for a contact' });
  await choose(page, preview, 'Contact', 'Sofia Preview (PREVIEW-1)', 'Sofia');
  await preview.getByRole('button', { name: 'Show the preview' }).click();
  const shown = page.getByTestId('template-preview');
  await shown.getByTestId('preview-subject').getByText('Καλώς ήρθες, Sofia').waitFor();
  expect(await shown.getByTestId('preview-content').innerText()).toBe('Γεια σου Sofia');
  // English, chosen: the other content, with her code, and its HTML drawn in the sandboxed frame.
  await choose(page, preview, 'Language', 'English');
  await preview.getByRole('button', { name: 'Show the preview' }).click();
  await shown.getByTestId('preview-subject').getByText('Welcome, Sofia').waitFor();
  expect(await shown.getByTestId('preview-content').innerText()).toBe('Dear Sofia, your code is PREVIEW-1.');
  const html = page.frameLocator('iframe[title="The e-mail\'s HTML for this contact"]');
  expect(await html.locator('b').innerText()).toBe('Sofia');
  await screenshot(page, 'communications-03-template-preview');
  expect((await call('GET', `/communications?contact_id=${contactId}`)).content).toEqual([]);

  await tab('Templates').click();
  expect(await page.getByTestId('template-row').innerText()).toMatch(/Welcome pack\s+WELCOME-PACK\s+English, Greek/);
});

test('a plan: the cron shows its next ticks on the organisation\'s clock, a refused date at its field, saved as a draft, posted, taken back', async () => {
  const page = w.page;
  await tab('Plans').click();
  await page.getByText('No plan yet.').waitFor();
  await page.getByRole('link', { name: 'New plan' }).click();
  await page.getByRole('heading', { name: 'New plan' }).waitFor();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Weekly news');
  const start = page.getByLabel(`Start (${ZONE})`);
  const end = page.getByLabel(`End (${ZONE})`);
  await start.fill('2031-01-01T00:00');

  // A frequency the API would refuse is said at once; a good one lists its next ticks on Nicosia's clock.
  const frequency = page.getByRole('textbox', { name: 'Frequency (cron, UTC)' });
  await frequency.fill('0 9 * *');
  await page.getByTestId('frequency-problem').getByText(/got 4/).waitFor();
  await frequency.fill('0 9 * * 1');
  const ticks = page.getByTestId('next-ticks').getByRole('listitem');
  await page.getByRole('heading', { name: `Next 5 ticks in ${ZONE}` }).waitFor();
  // Mondays at 09:00 UTC from the start on: 11:00 in Nicosia in winter.
  const expected = ['2031-01-06', '2031-01-13', '2031-01-20', '2031-01-27', '2031-02-03'].map((d) => Date.parse(`${d}T09:00:00Z`) / 1000);
  expect((await ticks.evaluateAll((items) => items.map((i) => Number(i.getAttribute('data-epoch')))))).toEqual(expected);
  for (const text of await ticks.allInnerTexts()) expect(text).toMatch(/11:00.*\(2031-0\d-\d\d 09:00 UTC\)/);

  await choose(page, page, 'Segments', 'Newsletter readers (1 contact)');
  await choose(page, page, 'Start from a template', 'Welcome pack (WELCOME-PACK)');
  await tab('Greek').waitFor();
  // An end before the start: the API refuses it, at the End field.
  await end.fill('2030-12-31T00:00');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  const endError = await waitForFieldError(end);
  expect(endError).toBe('must be after start_date');
  expect(await fieldError(start)).toBeNull();
  await screenshot(page, 'communications-04-plan-refused-at-field');
  expect(w.problems).toEqual([expect.stringContaining('status of 400')]);
  w.problems.length = 0;

  await end.fill('');
  await page.getByRole('button', { name: 'Save as draft' }).click();
  await page.getByRole('heading', { name: 'Plan: Weekly news' }).waitFor();
  const planId = new URL(page.url()).pathname.split('/').pop()!;
  expect(await page.getByTestId('plan-state').innerText()).toBe('DRAFT');
  const draft = await call('GET', `/communication_plans/${planId}`);
  expect(draft).toMatchObject({
    life_cycle_state: 'DRAFT', frequency: '0 9 * * 1', preferred_channel: 'EMAIL', end_date: null, next_tick_on: null,
    start_date: Date.parse('2030-12-31T22:00:00Z') / 1000, // midnight in Nicosia (UTC+2)
    segments: [expect.objectContaining({ name: 'Newsletter readers' })],
    contents: [expect.objectContaining({ language: 'eng', subject: 'Welcome, {{contact.first_name}}' }), expect.objectContaining({ language: 'ell' })],
  });

  // Posted after a confirmation that names the first tick; the service's own next tick is the first one listed.
  await page.getByRole('button', { name: 'Save and post' }).click();
  const confirm = page.getByRole('dialog', { name: 'Post “Weekly news”?' });
  expect(await confirm.innerText()).toContain('11:00');
  await confirm.getByRole('button', { name: 'Post' }).click();
  await page.getByTestId('plan-state').getByText('POSTED').waitFor();
  const posted = await call('GET', `/communication_plans/${planId}`);
  expect(posted).toMatchObject({ life_cycle_state: 'POSTED', next_tick_on: expected[0] });
  expect(await page.getByTestId('plan-next-tick').innerText()).toMatch(/11:00/);
  await screenshot(page, 'communications-05-plan-posted');

  await tab('Plans').click();
  const row = page.getByTestId('plan-row');
  expect(await row.innerText()).toMatch(/Weekly news\s+POSTED\s+EMAIL\s+0 9 \* \* 1\s+.*11:00/);
  await screenshot(page, 'communications-06-plans-list');

  await row.getByRole('link', { name: 'Weekly news' }).click();
  await page.getByRole('button', { name: 'Back to draft' }).click();
  await page.getByTestId('plan-state').getByText('DRAFT').waitFor();
  expect((await call('GET', `/communication_plans/${planId}`)).life_cycle_state).toBe('DRAFT');
});

test('sent messages: filters, a message with what was sent, archived', async () => {
  const page = w.page;
  // Two e-mails of the template, Greek then English, sent through the API.
  for (const language of ['ell', 'eng']) {
    await call('POST', '/communications', { name: 'Welcome pack mail', contact_id: contactId, channel: 'EMAIL', template_id: templateId, language, recipient: 'marketing@console.test' });
  }
  await tab('Sent messages').click();
  await page.getByTestId('message-total').getByText('2 communications').waitFor();
  const rows = page.getByTestId('message-row');
  // The list reads itself again while a message is PENDING.
  await eventually(async () => (await rows.getByTestId('message-state').allInnerTexts()).join() === 'SENT,SENT', 20_000, 'both e-mails SENT');
  expect(await rows.first().innerText()).toMatch(/Welcome, Sofia\s+Welcome pack mail\s+EMAIL\s+SENT\s+marketing@console.test/);
  await choose(page, page, 'State', 'FAILED');
  await page.getByText('No communication matches.').waitFor();
  expect(new URL(page.url()).searchParams.get('state')).toBe('FAILED');
  await page.getByRole('combobox', { name: 'State', exact: true }).click();
  await page.getByRole('option', { name: 'FAILED', exact: true }).click(); // deselects
  await choose(page, page, 'Contact', 'Sofia Preview (PREVIEW-1)', 'PREVIEW');
  await page.getByTestId('message-total').getByText('2 communications').waitFor();
  expect(new URL(page.url()).searchParams.get('contact_id')).toBe(contactId);
  await screenshot(page, 'communications-07-sent-messages');

  await rows.getByRole('link', { name: 'Welcome, Sofia' }).click();
  const preview = page.getByTestId('message-preview');
  await preview.getByTestId('message-subject').getByText('Welcome, Sofia').waitFor();
  expect(await preview.getByTestId('message-content').innerText()).toBe('Dear Sofia, your code is PREVIEW-1.');
  // The HTML part as sent, drawn in a sandboxed frame.
  expect(await page.frameLocator('iframe[title="The e-mail\'s HTML as sent"]').locator('p').innerText()).toBe('Dear Sofia, welcome.');
  const facts = await page.getByRole('table', { name: 'Delivery' }).innerText();
  expect(facts).toMatch(/To\s+marketing@console.test/);
  expect(facts).toMatch(/Language\s+English/);
  expect(facts).toMatch(/Contact\s+Sofia Preview/);
  await page.getByRole('button', { name: 'Archive' }).click();
  await page.getByRole('button', { name: 'Unarchive' }).waitFor();
  expect(await page.getByRole('table', { name: 'Delivery' }).innerText()).toMatch(/Archived\s+Yes/);
  await screenshot(page, 'communications-08-message');
  const archived = (await call('GET', `/communications?contact_id=${contactId}&is_archived=true`)).content;
  expect(archived.map((c: { subject: string }) => c.subject)).toEqual(['Welcome, Sofia']);

  // Back to the list with its filter kept.
  await page.goBack();
  await page.getByTestId('message-total').getByText('2 communications').waitFor();
  await choose(page, page, 'Archived', 'Not archived');
  await page.getByTestId('message-total').getByText('1 communication').waitFor();
});

test('tablet width: no sideways scrolling on the list, a template and a plan', async () => {
  const page = w.page;
  await page.setViewportSize({ width: 768, height: 1024 });
  await nav().getByRole('link', { name: 'Communications' }).click();
  await page.getByTestId('message-total').waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await tab('Templates').click();
  await page.getByTestId('template-row').getByRole('link', { name: 'Welcome pack' }).click();
  await page.getByRole('heading', { name: 'Template: Welcome pack' }).waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await tab('Plans').click();
  await page.getByTestId('plan-row').getByRole('link', { name: 'Weekly news' }).click();
  await page.getByRole('heading', { name: 'Plan: Weekly news' }).waitFor();
  await page.getByTestId('next-ticks').waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, 'communications-09-tablet-plan');
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
