// Users in the console (docs/console.md "Settings and keys"), in headless Chromium: an admin makes
// a user with contacts:read only, who logs in in a browser of their own and reaches Customers but
// not Automations; the admin disables them (their open session ends, their next login is refused),
// enables them, gives them a generated password shown once (the old one is refused, the new one
// works) and ends their sessions; the admin's own demotion is refused at the Admin switch.
import { eventually } from '../test/communications/helpers';
import { api } from '../test/support/api';
import { createTenant, type Tenant } from '../test/support/tenants';
import { consoleUrl, ensureConsoleBuilt, logIn, openConsole, screenshot, scrollsSideways, settled, type Watched } from './console-support';
import { shownOnceSecret } from './console-settings-support';

let tenant: Tenant;
/** The admin's browser. */
let w: Watched;
/** The new user's browser: a session of its own. */
let clerk: Watched;
const username = `clerk-${process.pid}-${Date.now().toString(36)}`;
const firstPassword = 'clerk passphrase one';
let currentPassword = firstPassword;

const userOf = async (name: string) => {
  const res = await api('GET', `/users?username=${encodeURIComponent(name)}`, { key: tenant.secretKey });
  if (res.status !== 200) throw new Error(`GET /users: ${res.status} ${res.text}`);
  return res.body.content[0];
};
const row = (name: string) => w.page.getByTestId('user-row').filter({ hasText: name });
/** The admin opens a user's dialog from the list. */
async function edit(name: string) {
  await row(name).getByRole('button', { name: `Edit ${name}` }).click();
  return w.page.getByRole('dialog', { name: `Edit ${name}` });
}
/** The message a control's aria-describedby points at. */
const describedBy = (page: Watched['page'], ids: string) =>
  page.evaluate<string>(`${JSON.stringify(ids)}.split(' ').map((i) => document.getElementById(i)?.textContent ?? '').join(' ')`);
/** Chrome logs a refused request as a console error: the expected ones are taken off the list. */
function expectRefusals(watched: Watched, ...statuses: number[]) {
  expect(watched.problems).toEqual(statuses.map((s) => expect.stringContaining(`status of ${s}`)));
  watched.problems.length = 0;
}
/** As many as the page made (a refused call, its refresh, a refused login), and nothing else. */
function expectOnlyRefusals(watched: Watched, status: number) {
  expect(watched.problems.filter((p) => !p.includes(`status of ${status}`))).toEqual([]);
  watched.problems.length = 0;
}
/** Logs in on the login page and answers the status of POST /users/login. */
async function loginAnswer(watched: Watched, name: string, password: string): Promise<number> {
  const answer = watched.page.waitForResponse((r) => new URL(r.url()).pathname === '/backoffice/v1/users/login');
  await logIn(watched.page, name, password);
  return (await answer).status();
}

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console users');
  const contact = await api('POST', '/contacts', { key: tenant.secretKey, body: { contact_type: 'PERSON', first_name: 'Visible', last_name: 'Customer' } });
  expect(contact.status).toBe(200);
  w = await openConsole();
  await w.page.goto(consoleUrl('/settings/users'));
  await logIn(w.page, tenant.admin.username, tenant.admin.password);
  await row(tenant.admin.username).waitFor();
});

afterAll(async () => {
  await w?.browser.close();
  await clerk?.browser.close();
});

test('an admin creates a user with contacts:read only; the repetition and the API\'s password rule are shown at their fields', async () => {
  const page = w.page;
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByRole('textbox', { name: 'Username' }).fill(username);
  await dialog.getByRole('textbox', { name: 'First name' }).fill('Clara');
  await dialog.getByRole('textbox', { name: 'Last name' }).fill('Clerk');
  await dialog.getByRole('textbox', { name: 'E-mail' }).fill('clara@console.test');
  await dialog.getByRole('switch', { name: 'Generate a password' }).uncheck();
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('too short');
  await dialog.getByRole('textbox', { name: 'Repeat the password' }).fill('too shorT');
  await dialog.getByRole('checkbox', { name: 'contacts:read' }).check();
  await dialog.getByRole('button', { name: 'Create the user' }).click();
  await dialog.getByText('The two passwords differ').waitFor();

  await dialog.getByRole('textbox', { name: 'Repeat the password' }).fill('too short');
  await dialog.getByRole('button', { name: 'Create the user' }).click();
  // The API's rule, at the Password field.
  const password = dialog.getByRole('textbox', { name: 'Password', exact: true });
  await eventually(async () => (await password.getAttribute('aria-invalid')) === 'true', 30_000, 'the password field marked invalid');
  await dialog.getByText('must have at least 12 characters').waitFor();
  expectRefusals(w, 400);
  expect(await userOf(username)).toBeUndefined();

  await password.fill(firstPassword);
  await dialog.getByRole('textbox', { name: 'Repeat the password' }).fill(firstPassword);
  await screenshot(page, 'users-01-new-user');
  await dialog.getByRole('button', { name: 'Create the user' }).click();
  await row(username).waitFor();
  const text = await row(username).innerText();
  expect(text).toContain('Clara Clerk');
  expect(text).toContain('contacts:read');
  expect(text).not.toContain('Admin');
  expect(await userOf(username)).toMatchObject({ first_name: 'Clara', email: 'clara@console.test', is_admin: false, scopes: ['contacts:read'], is_disabled: false });
  await screenshot(page, 'users-02-list');
});

test('the user logs in in a browser of their own: Customers works, Automations says what scope is missing', async () => {
  clerk = await openConsole();
  const page = clerk.page;
  await page.goto(consoleUrl('/customers'));
  await logIn(page, username, currentPassword);
  await page.getByRole('heading', { name: 'Customers' }).waitFor();
  await page.getByRole('link', { name: 'Visible Customer' }).waitFor();
  expect(await page.getByTestId('contact-total').innerText()).toBe('1 contact');
  await screenshot(page, 'users-03-user-customers');
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
  await page.getByText('This credential lacks the scope automations:read').waitFor();
  await screenshot(page, 'users-04-user-scope-refused');
  // The list and each automation's runs: every call of the page is refused the same way.
  await page.waitForLoadState('networkidle');
  expectOnlyRefusals(clerk, 403);
});

test('disabled after a confirmation: the open session ends and the next login is refused', async () => {
  const page = w.page;
  let dialog = await edit(username);
  await dialog.getByRole('button', { name: 'Disable…' }).click();
  const confirm = page.getByRole('dialog', { name: `Disable ${username}?` });
  await confirm.waitFor();
  await screenshot(page, 'users-05-disable-confirmation');
  // Cancel first: back to the form, nothing changed.
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  dialog = page.getByRole('dialog', { name: `Edit ${username}` });
  await dialog.getByRole('button', { name: 'Disable…' }).click();
  expect((await userOf(username)).is_disabled).toBe(false);
  await confirm.getByRole('button', { name: 'Disable', exact: true }).click();
  await dialog.getByRole('button', { name: 'Enable…' }).waitFor();
  await page.keyboard.press('Escape');
  await row(username).getByText('Disabled', { exact: true }).waitFor();
  expect(await userOf(username)).toMatchObject({ is_disabled: true, disabled_on: expect.any(Number) });
  await screenshot(page, 'users-06-disabled');

  // The user's open session: the next call is refused, its refresh too, and the console returns to the login.
  await clerk.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Customers' }).click();
  await clerk.page.getByRole('button', { name: 'Log in' }).waitFor();
  expect(await loginAnswer(clerk, username, currentPassword)).toBe(401);
  await clerk.page.getByTestId('login-error').getByText('Invalid username or password').waitFor();
  await screenshot(clerk.page, 'users-07-disabled-login-refused');
  expectOnlyRefusals(clerk, 401);
});

test('enabled, then a generated password shown once: the old one is refused, the new one works', async () => {
  const page = w.page;
  const dialog = await edit(username);
  await dialog.getByRole('button', { name: 'Enable…' }).click();
  await page.getByRole('dialog', { name: `Enable ${username}?` }).getByRole('button', { name: 'Enable', exact: true }).click();
  await dialog.getByRole('button', { name: 'Disable…' }).waitFor();
  expect((await userOf(username)).is_disabled).toBe(false);

  await dialog.getByRole('button', { name: 'Reset password…' }).click();
  const reset = page.getByRole('dialog', { name: `New password for ${username}` });
  expect(await reset.getByRole('switch', { name: 'Generate a password' }).isChecked()).toBe(true);
  await reset.getByRole('button', { name: 'Set the password' }).click();
  const generated = await shownOnceSecret(page);
  expect(generated).toMatch(/^[\w-]{24}$/);
  await screenshot(page, 'users-08-password-shown-once');
  await page.getByRole('button', { name: 'I have stored it' }).click();
  expect(await page.locator('body').innerText()).not.toContain(generated);

  expect(await loginAnswer(clerk, username, firstPassword)).toBe(401);
  await clerk.page.getByTestId('login-error').getByText('Invalid username or password').waitFor();
  currentPassword = generated;
  await logIn(clerk.page, username, currentPassword);
  await clerk.page.getByRole('heading', { name: 'Customers' }).waitFor();
  await screenshot(clerk.page, 'users-09-new-password-works');
  expectOnlyRefusals(clerk, 401);
});

test('End sessions after a confirmation: the user\'s console returns to the login', async () => {
  const page = w.page;
  const dialog = await edit(username);
  await dialog.getByRole('button', { name: 'End sessions…' }).click();
  await page.getByRole('dialog', { name: `End the sessions of ${username}?` }).getByRole('button', { name: 'End sessions', exact: true }).click();
  await dialog.getByRole('button', { name: 'End sessions…' }).waitFor();
  await page.keyboard.press('Escape');
  await clerk.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Automations' }).click();
  await clerk.page.getByRole('button', { name: 'Log in' }).waitFor();
  // The page's other calls are refused too, and one may answer after the login shows: count them all here.
  await settled(clerk);
  expectOnlyRefusals(clerk, 401);
});

test("the admin's own demotion is refused at the Admin switch, and nothing changes", async () => {
  const page = w.page;
  const dialog = await edit(tenant.admin.username);
  await dialog.getByText('This is you').waitFor();
  const admin = dialog.getByRole('switch', { name: 'Admin' });
  await admin.uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await eventually(async () => (await admin.getAttribute('aria-invalid')) === 'true', 30_000, 'the Admin switch marked invalid');
  expect(await describedBy(page, (await admin.getAttribute('aria-describedby'))!)).toContain('you cannot take your own admin rights');
  await screenshot(page, 'users-10-self-demotion-refused');
  expectRefusals(w, 409);
  expect((await userOf(tenant.admin.username)).is_admin).toBe(true);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('works at tablet width without sideways scrolling', async () => {
  const page = w.page;
  await page.setViewportSize({ width: 768, height: 1024 });
  await row(username).waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await page.getByRole('button', { name: 'New user' }).click();
  await page.getByRole('dialog', { name: 'New user' }).waitFor();
  expect(await scrollsSideways(page)).toBe(false);
  await screenshot(page, 'users-11-tablet-new-user');
  await page.getByRole('dialog', { name: 'New user' }).getByRole('button', { name: 'Cancel' }).click();
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('no console or CSP errors, and no host but the service', () => {
  for (const watched of [w, clerk]) {
    expect(watched.problems).toEqual([]);
    expect([...watched.hosts]).toEqual(['localhost']);
  }
});
