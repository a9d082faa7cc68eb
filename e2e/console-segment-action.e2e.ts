// Add To Segment in the console (issue 33): a marketer builds "on contact registered: join the
// welcome series" by choosing the segment by name (only STATIC segments are offered: a FILTER one
// takes no members), and a contact who then registers is a member of it.
import { eventually } from '../test/communications/helpers';
import { createTenant, type Tenant } from '../test/support/tenants';
import { apiCall, choose, ensureConsoleBuilt, openSignedIn, type Watched } from './console-support';

let tenant: Tenant;
let w: Watched;
const call = (method: string, route: string, body?: unknown) => apiCall(tenant.secretKey, method, route, body);

beforeAll(async () => {
  ensureConsoleBuilt();
  tenant = await createTenant('Console segment action');
  w = await openSignedIn(tenant.admin, '/automations', 'Automations');
});

afterAll(async () => {
  await w?.browser.close();
});

test('the segment is chosen by name among the STATIC ones; a registered contact joins it', async () => {
  const welcome = (await call('POST', '/segments', { name: 'Welcome series', code: 'WELCOME', type: 'STATIC', contact_ids: [] })).id;
  await call('POST', '/segments', { name: 'Everyone', type: 'FILTER', filters: {} });
  const page = w.page;
  await page.getByRole('link', { name: 'New automation' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('Join the welcome series');
  await choose(page, page, 'When this happens', 'Contact registered');
  await choose(page, page, 'Add an action', /^Add To Segment/, 'Add To Segment');
  const step = page.getByTestId('action-1');
  await step.getByText("Adds the event's contact to a static segment", { exact: false }).waitFor();

  await step.getByRole('combobox', { name: 'Segment', exact: true }).click();
  await page.getByRole('option', { name: 'Welcome series (WELCOME)', exact: true }).waitFor();
  expect(await page.getByRole('option').allInnerTexts()).toEqual(['Welcome series (WELCOME)']);
  await page.getByRole('option', { name: 'Welcome series (WELCOME)', exact: true }).click();
  await page.getByRole('switch', { name: 'Active' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Saved “Join the welcome series”').waitFor();

  const [auto] = (await call('GET', '/automations?name=Join%20the%20welcome%20series')).content;
  expect(auto).toMatchObject({ life_cycle_state: 'ACTIVE', event: 'REGISTER_CONTACT', action_count: 1 });
  const [action] = (await call('GET', `/automations/${auto.id}/actions`)).content;
  expect(action).toMatchObject({ adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'ADD_TO_SEGMENT', adaptor_action_parameters: [expect.objectContaining({ parameter_key: 'segment_id', parameter_from_value: welcome })] });

  const ann = (await call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Ann', last_name: 'Welcome' })).id;
  await eventually(async () => (await call('GET', `/segments/${welcome}/contacts`)).content.some((c: { id: string }) => c.id === ann), 30_000, 'Ann in the welcome series');
  expect(w.problems).toEqual([]);
});
