// PUT /contacts (bulk): category and custom fields of many contacts, all or nothing, answered
// with a fresh call id per call.
import { createTenant, type Tenant } from '../support/tenants';
import { GUID, call, createContact, createReference, expectError, getContact, unique } from './contact-helpers';

let t: Tenant;
let key: string;

beforeAll(async () => {
  t = await createTenant('Contacts bulk');
  key = t.secretKey;
});

test('updates every listed contact by id or code and answers a new call id each time', async () => {
  const gold = await createReference(key, '/contact_categories', 'Gold');
  const silver = await createReference(key, '/contact_categories', 'Silver');
  const code = unique('B');
  const first = await createContact(key, { code, custom_fields: [{ key: 'tier', value: 'none' }, { key: 'keep', value: 'me' }] });
  const second = await createContact(key);
  const res = await call(key, 'PUT', '/contacts', {
    contacts: [
      { contact: { code }, category: { code: gold.code }, custom_fields: [{ key: 'tier', value: 'gold' }] },
      { contact: { id: second }, category: { id: silver.id } },
    ],
  });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: expect.stringMatching(GUID) });
  const a = await getContact(key, first);
  expect(a.category).toEqual({ id: gold.id, name: 'Gold' });
  expect(a.custom_fields).toEqual([
    { key: 'keep', value: 'me' },
    { key: 'tier', value: 'gold' },
  ]);
  expect((await getContact(key, second)).category).toEqual({ id: silver.id, name: 'Silver' });

  const again = await call(key, 'PUT', '/contacts', { contacts: [{ contact: { id: second }, custom_fields: [{ key: 'x', value: 'y' }] }] });
  expect(again.status).toBe(200);
  expect(again.body.id).toMatch(GUID);
  expect(again.body.id).not.toBe(res.body.id);
});

test('one bad item: 400 naming it, and nothing of the call is written', async () => {
  const gold = await createReference(key, '/contact_categories', 'Platinum');
  const good = await createContact(key, { custom_fields: [{ key: 'tier', value: 'none' }] });
  const [two, three] = [await createContact(key), await createContact(key)];
  const res = await call(key, 'PUT', '/contacts', {
    contacts: [
      { contact: { id: good }, category: { id: gold.id }, custom_fields: [{ key: 'tier', value: 'gold' }] },
      { contact: { id: two }, category: { id: gold.id } },
      { contact: { id: three }, custom_fields: [{ key: 'tier', value: 'gold' }] },
      { contact: { code: unique('MISSING') }, category: { id: gold.id } },
    ],
  });
  expectError(res, 400, 'INVALID_REQUEST', 'contacts.3.contact.code');
  const c = await getContact(key, good);
  expect(c.category).toBeNull();
  expect(c.custom_fields).toEqual([{ key: 'tier', value: 'none' }]);
  expect((await getContact(key, two)).category).toBeNull();
  expect((await getContact(key, three)).custom_fields).toEqual([]);
});

test('bad references and shapes name the item', async () => {
  const id = await createContact(key);
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: { id }, category: { code: 'NOPE' } }] }), 400, 'INVALID_REQUEST', 'contacts.0.category');
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: {} }] }), 400, 'INVALID_REQUEST', 'contacts.0.contact');
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: { id: 'xyz' } }] }), 400, 'INVALID_REQUEST', 'contacts.0.contact.id');
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: { id }, custom_fields: [{ value: '1' }] }] }), 400, 'INVALID_REQUEST', 'contacts.0.custom_fields.0.key');
  expectError(await call(key, 'PUT', '/contacts', { contacts: [] }), 400, 'INVALID_REQUEST', 'contacts');
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: { id } }, { contact: { id } }] }), 400, 'INVALID_REQUEST', 'contacts.1.contact.id');
});

test("another organisation's contacts are unknown: 400, and they stay unchanged", async () => {
  const other = await createTenant('Contacts bulk other');
  const code = unique('THEIRS');
  const theirs = await createContact(other.secretKey, { code, custom_fields: [{ key: 'k', value: 'theirs' }] });
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: { id: theirs }, custom_fields: [{ key: 'k', value: 'mine' }] }] }), 400, 'INVALID_REQUEST', 'contacts.0.contact.id');
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: { code }, custom_fields: [{ key: 'k', value: 'mine' }] }] }), 400, 'INVALID_REQUEST', 'contacts.0.contact.code');
  expect((await getContact(other.secretKey, theirs)).custom_fields).toEqual([{ key: 'k', value: 'theirs' }]);
});
