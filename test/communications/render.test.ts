// POST /communication_templates/{id}/render (docs/communications.md "Rendering without sending")
// and the rendered HTML answered by GET /communications/{id}.
import { createId, expectError, keyWith, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createContact, settled } from './helpers';

let a: Tenant;
let b: Tenant;
let template: string;
let contactId: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Template render A'), createTenant('Template render B')]);
  contactId = await createContact(a.secretKey, {
    code: 'TR-1', first_name: 'Eleni <i>&', last_name: 'Georgiou', preferred_language_code: 'ell', email_address: 'eleni@example.com',
  });
  template = await createId(a.secretKey, '/communication_templates', {
    name: 'Render me',
    contents: [
      { language: 'eng', subject: 'Welcome {{contact.first_name}}', plain_content: 'Hi {{ contact.code }}', rich_content: '<p>Hi {{contact.first_name}}</p>' },
      { language: 'ell', subject: 'Kalos {{contact.last_name}}', rich_content: '<p>Geia {{contact.first_name}}</p><br>{{contact.email}}' },
    ],
  });
});

const render = (key: string, body: object, id = template) => api('POST', `/communication_templates/${id}/render`, { key, body });

test("renders in the contact's language, values escaped in the HTML, and sends nothing", async () => {
  const before = await api('GET', `/communications?contact_id=${contactId}`, { key: a.secretKey });
  const res = await render(a.secretKey, { contact_id: 'TR-1' });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({
    template_id: template,
    contact: { id: contactId, name: 'Eleni <i>& Georgiou', code: 'TR-1' },
    channel: 'EMAIL',
    language: 'ell',
    subject: 'Kalos Georgiou',
    // No plain text in this language: the HTML as text, values as they are.
    content: 'Geia Eleni <i>&\n\neleni@example.com',
    rich_content: '<p>Geia Eleni &lt;i&gt;&amp;</p><br>eleni@example.com',
  });
  const after = await api('GET', `/communications?contact_id=${contactId}`, { key: a.secretKey });
  expect(after.body.paging.total_elements).toBe(before.body.paging.total_elements);

  const english = await render(a.secretKey, { contact_id: contactId, language: 'eng', channel: 'SMS' });
  expect(english.status).toBe(200);
  expect(english.body).toMatchObject({ language: 'eng', subject: 'Welcome Eleni <i>&', content: 'Hi TR-1', rich_content: null, channel: 'SMS' });
});

test('a sent communication answers the HTML it was rendered with; lists do not carry it', async () => {
  const id = await createId(a.secretKey, '/communications', { name: 'Sent', contact_id: contactId, channel: 'EMAIL', template_id: template });
  const sent = await settled(a.secretKey, id);
  expect(sent.life_cycle_state).toBe('SENT');
  expect(sent.rich_content).toBe((await render(a.secretKey, { contact_id: contactId })).body.rich_content);
  const list = await api('GET', `/communications?contact_id=${contactId}`, { key: a.secretKey });
  expect(list.body.content[0]).not.toHaveProperty('rich_content');

  const direct = await createId(a.secretKey, '/communications', { name: 'Direct', contact_id: contactId, channel: 'EMAIL', subject: 'S', content: 'Plain' });
  expect((await api('GET', `/communications/${direct}`, { key: a.secretKey })).body.rich_content).toBeNull();
});

test('personal data needs contacts:read beside communications:read; public keys are refused', async () => {
  expectError(await render(a.publicKey, { contact_id: contactId }), 403, 'FORBIDDEN');
  const communicationsOnly = await keyWith(a.secretKey, ['communications:read']);
  expectError(await render(communicationsOnly, { contact_id: contactId }), 403, 'FORBIDDEN', 'contact_id');
  const contactsOnly = await keyWith(a.secretKey, ['contacts:read']);
  expectError(await render(contactsOnly, { contact_id: contactId }), 403, 'FORBIDDEN');
  const both = await keyWith(a.secretKey, ['communications:read', 'contacts:read']);
  expect((await render(both, { contact_id: contactId })).status).toBe(200);
});

test('refusals name the field; another organisation sees nothing', async () => {
  expectError(await render(a.secretKey, {}), 400, 'INVALID_REQUEST', 'contact_id');
  expectError(await render(a.secretKey, { contact_id: contactId, channel: 'FAX' }), 400, 'INVALID_REQUEST', 'channel');
  expectError(await render(a.secretKey, { contact_id: contactId, language: 'english' }), 400, 'INVALID_REQUEST', 'language');
  expectError(await render(a.secretKey, { contact_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'contact_id');
  expectError(await render(a.secretKey, { contact_id: contactId }, UNKNOWN_ID), 404, 'NOT_FOUND');
  // B's key: A's template and A's contact are unknown to it.
  const bContact = await createContact(b.secretKey, { first_name: 'Other' });
  expectError(await render(b.secretKey, { contact_id: bContact }), 404, 'NOT_FOUND');
  expectError(await render(b.secretKey, { contact_id: contactId }, template), 404, 'NOT_FOUND');
  expectError(await render(a.secretKey, { contact_id: bContact }), 400, 'INVALID_REQUEST', 'contact_id');
});
