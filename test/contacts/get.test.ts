// GET /contacts/{id}: by GUID (either form) or code, derived fields, tenancy.
import { createTenant, type Tenant } from '../support/tenants';
import { call, createContact, expectError, getContact, unique } from './contact-helpers';

let t: Tenant;
let key: string;

beforeAll(async () => {
  t = await createTenant('Contacts get');
  key = t.secretKey;
});

test('by id (hyphenated, 32 hex, upper case) and by code', async () => {
  const code = unique('G');
  const id = await createContact(key, { code });
  for (const ref of [id, id.replace(/-/g, ''), id.toUpperCase(), code]) {
    const c = await getContact(key, ref);
    expect(c.id).toBe(id);
  }
});

test('a code that looks like a GUID still finds its contact', async () => {
  const code = '0190f0e4-7b3a-7c1e-9a55-' + Date.now().toString(16).padStart(12, '0').slice(-12);
  const id = await createContact(key, { code });
  expect(id).not.toBe(code);
  expect((await getContact(key, code)).id).toBe(id);
});

test("when one contact's code equals another one's id, the id wins", async () => {
  const first = await createContact(key);
  const second = await createContact(key, { code: first });
  expect((await getContact(key, first)).id).toBe(first);
  expect((await getContact(key, second)).code).toBe(first);
});

test('contact_name follows the name display setting; a COMPANY shows its company name', async () => {
  const id = await createContact(key, { title: 'Dr', first_name: 'Ada', middle_name: 'King', last_name: 'Lovelace' });
  const company = await createContact(key, { contact_type: 'COMPANY', first_name: undefined, last_name: undefined, company_name: 'Analytical Engines' });
  expect((await getContact(key, id)).contact_name).toBe('Ada Lovelace');
  expect((await call(key, 'PUT', '/name_display_settings', { format: 'LAST_COMMA_FIRST' })).status).toBe(200);
  expect((await getContact(key, id)).contact_name).toBe('Lovelace, Ada');
  expect((await call(key, 'PUT', '/name_display_settings', { format: 'TITLE_FIRST_MIDDLE_LAST' })).status).toBe(200);
  expect((await getContact(key, id)).contact_name).toBe('Dr Ada King Lovelace');
  expect((await getContact(key, company)).contact_name).toBe('Analytical Engines');
  await call(key, 'PUT', '/name_display_settings', { format: 'FIRST_LAST' });
});

test('derived fields of a new contact', async () => {
  const c = await getContact(key, await createContact(key));
  expect(c).toMatchObject({
    interaction_status: 'RESTING',
    total_spend: 0,
    is_anonymized: false,
    consent_state: null,
    kyc_profile: null,
    kyc_status: null,
    category: null,
    addresses: [],
    phones: [],
    emails: [],
    email_address: null,
    custom_fields: [],
  });
});

test("unknown ids and codes, and another organisation's contact: 404", async () => {
  const other = await createTenant('Contacts get other');
  const code = unique('THEIRS');
  const theirs = await createContact(other.secretKey, { code });
  expectError(await call(key, 'GET', `/contacts/${theirs}`), 404, 'NOT_FOUND');
  expectError(await call(key, 'GET', `/contacts/${code}`), 404, 'NOT_FOUND');
  expectError(await call(key, 'GET', '/contacts/0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10'), 404, 'NOT_FOUND');
  expect((await call(other.secretKey, 'GET', `/contacts/${code}`)).status).toBe(200);
});

test('authorisation: a public key is refused, a read-only key reads', async () => {
  const id = await createContact(key);
  expectError(await call(t.publicKey, 'GET', `/contacts/${id}`), 403, 'FORBIDDEN');
  const made = await call(key, 'POST', '/api_keys', { name: 'writer only', scopes: ['contacts:write'] });
  expectError(await call(made.body.key, 'GET', `/contacts/${id}`), 403, 'FORBIDDEN');
});
