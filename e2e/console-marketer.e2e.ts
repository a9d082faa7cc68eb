// The marketer's scenario of issue 24 through the console only: "a welcome e-mail to every newly
// registered contact in Cyprus, and a webhook to our CRM". Everything a marketer does is done in
// the browser: the webhook (Webhooks), the template (Communications), the automation (the
// builder), the registration (Customers, New contact); then the run is seen COMPLETED in its
// history and the e-mail SENT in the Communications list, its page showing the subject. The test
// itself only starts a receiver for the webhook (the test service allows 127.0.0.1:
// OUTBOUND_ALLOW_CIDRS in test/support/service-process.ts) and checks what arrived there.
import { eventually } from '../test/communications/helpers';
import { createTenant, type Tenant } from '../test/support/tenants';
import { expectedSignature, startReceiver, type Receiver } from '../test/webhooks/receiver';
import { choose, consoleUrl, ensureConsoleBuilt, logIn, openConsole, screenshot, type Watched } from './console-support';

let tenant: Tenant;
let w: Watched;
let receiver: Receiver;

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console marketer scenario');
  receiver = await startReceiver();
  w = await openConsole();
});

afterAll(async () => {
  await w?.browser.close();
  await receiver?.close();
});

test('the marketer\'s scenario, in the console only: webhook, template, automation, a contact registered in Cyprus, the run, the webhook and the e-mail', async () => {
  const page = w.page;
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const began = Date.now();
  await page.goto(consoleUrl('/automations'));
  await logIn(page, tenant.admin.username, tenant.admin.password);
  await page.getByRole('heading', { name: 'Automations' }).waitFor();

  // 1. Where the CRM listens: a webhook; its signing secret is shown once.
  await nav.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByRole('link', { name: 'New webhook' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Our CRM');
  await page.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
  await page.getByRole('button', { name: 'Create' }).click();
  const secret = (await page.getByRole('dialog').getByTestId('shown-once-secret').innerText()).trim();
  await page.getByRole('button', { name: 'I have stored it' }).click();
  await page.getByRole('heading', { name: 'Webhook: Our CRM' }).waitFor();
  await screenshot(page, 'marketer-01-webhook');

  // 2. The welcome e-mail: a template, its subject with the contact's first name from the placeholder list.
  await nav.getByRole('link', { name: 'Communications' }).click();
  await page.getByRole('tab', { name: 'Templates' }).click();
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Welcome');
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill('WELCOME');
  const editor = page.getByTestId('content-editor');
  await editor.getByRole('textbox', { name: 'Subject', exact: true }).fill('Welcome, ');
  await page.getByRole('button', { name: 'Insert {{contact.first_name}}' }).click();
  await editor.getByRole('textbox', { name: 'Plain text', exact: true }).fill('Dear {{contact.first_name}}, welcome.');
  await page.getByRole('button', { name: 'Create template' }).click();
  await page.getByRole('heading', { name: 'Template: Welcome' }).waitFor();
  await screenshot(page, 'marketer-02-template');

  // 3. The automation: on "Contact registered" in Cyprus, the e-mail and the webhook.
  await nav.getByRole('link', { name: 'Automations' }).click();
  await page.getByRole('link', { name: 'New automation' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Cyprus welcome');
  await choose(page, page, 'When this happens', 'Contact registered');
  await choose(page, page, 'Add an action', /^Communicate Customer/, 'Communicate Customer');
  const mail = page.getByTestId('action-1');
  await choose(page, mail, 'Template', 'Welcome (WELCOME)');
  await mail.getByRole('button', { name: 'Add a condition' }).click();
  await choose(page, mail, 'Attribute', 'Country', 'Country');
  await choose(page, mail, 'Value', 'Cyprus (CYP)', 'Cyprus');
  await choose(page, page, 'Add an action', /^POST Webhook/, 'POST Webhook');
  await choose(page, page.getByTestId('action-2'), 'Webhook', `Our CRM (POST ${receiver.url})`, 'Our CRM');
  await mail.getByRole('button', { name: 'Use these conditions on every action' }).click();
  await page.getByRole('switch', { name: /Active/ }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved “Cyprus welcome”').waitFor();
  await screenshot(page, 'marketer-03-automation');

  // 4. A contact in Cyprus registered on the Customers page.
  await nav.getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByRole('heading', { name: 'New contact' }).waitFor();
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Andreas');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Marketer');
  await page.getByRole('textbox', { name: 'E-mail address', exact: true }).fill('andreas@console.test');
  await page.getByRole('textbox', { name: 'Address line 1', exact: true }).fill('12 Makarios Avenue');
  await page.getByRole('textbox', { name: 'Town or city', exact: true }).fill('Nicosia');
  await choose(page, page, 'Country', 'Cyprus', 'Cypr');
  await screenshot(page, 'marketer-04-new-contact');
  await page.getByRole('button', { name: 'Create contact' }).click();
  await page.getByRole('heading', { name: 'Andreas Marketer' }).waitFor();
  const contactId = new URL(page.url()).pathname.split('/').pop()!;

  // 5. The run, COMPLETED in its history with both actions.
  await nav.getByRole('link', { name: 'Automations' }).click();
  await page.getByTestId('automation-row').filter({ hasText: 'Cyprus welcome' }).getByRole('link', { name: 'History' }).click();
  await page.getByRole('heading', { name: 'Runs of “Cyprus welcome”' }).waitFor();
  await eventually(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByTestId('run').first().waitFor({ timeout: 2_000 }).catch(() => undefined);
    return (await page.getByTestId('run-status').allInnerTexts()).join() === 'COMPLETED';
  }, 60_000, 'the run COMPLETED');
  expect(await page.getByTestId('run').getByRole('row').count()).toBe(3); // header + the e-mail + the webhook
  await screenshot(page, 'marketer-05-run-completed');
  // The webhook action's result links to its request: the attempt the CRM answered with 200.
  await page.getByTestId('run').getByRole('link', { name: 'the request and its attempts' }).click();
  const attempt = page.getByTestId('request-detail').getByTestId('attempt-row').first();
  await eventually(async () => (await attempt.count()) === 1 && /\b200\b/.test(await attempt.innerText()), 20_000, 'the request\'s attempt answered 200');
  await page.goBack();
  await page.getByRole('heading', { name: 'Runs of “Cyprus welcome”' }).waitFor();

  // 6. The webhook at the CRM's receiver: the registration, signed with the secret shown once.
  await eventually(async () => receiver.received.length > 0, 20_000, 'the webhook at the receiver');
  const [hook] = receiver.received;
  expect(JSON.parse(hook.body)).toMatchObject({ type: 'REGISTER_CONTACT', data: { entity: { id: contactId } } });
  expect(String(hook.headers['webhook-signature']).split(' ')).toContain(expectedSignature(secret, hook));

  // 7. The e-mail, SENT in the Communications list; its page shows the subject.
  await nav.getByRole('link', { name: 'Communications' }).click();
  const row = page.getByTestId('message-row').filter({ hasText: 'Cyprus welcome' });
  await eventually(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    return (await row.count()) === 1 && (await row.getByTestId('message-state').innerText()) === 'SENT';
  }, 30_000, 'the welcome e-mail SENT in the list');
  expect(await row.innerText()).toMatch(/Welcome, Andreas\s+Cyprus welcome\s+EMAIL\s+SENT\s+andreas@console.test/);
  await screenshot(page, 'marketer-06-communications-list');
  await row.getByRole('link', { name: 'Welcome, Andreas' }).click();
  await page.getByTestId('message-subject').getByText('Welcome, Andreas').waitFor();
  const seen = Date.now();
  expect(await page.getByTestId('message-content').innerText()).toBe('Dear Andreas, welcome.');
  await screenshot(page, 'marketer-07-email');
  // For the lead's note: the whole scenario, from the first page load to the e-mail seen.
  console.log(`marketer scenario through the console: ${seen - began} ms from the first page load to the e-mail seen`);
});

test('no console or CSP errors, and no host but the service', () => {
  expect(w.problems).toEqual([]);
  expect([...w.hosts]).toEqual(['localhost']);
});
