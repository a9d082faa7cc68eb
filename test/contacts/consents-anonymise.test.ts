// PUT /contacts/{id}/consents and POST /contacts/{id}/anonymize.
import { createTenant, type Tenant } from '../support/tenants';
import { call, createContact, expectError, getContact, search, unique } from './contact-helpers';

let t: Tenant;
let key: string;

beforeAll(async () => {
  t = await createTenant('Contacts consents');
  key = t.secretKey;
});

test('consent state moves between the three values; bad values and other organisations are refused', async () => {
  const code = unique('C');
  const id = await createContact(key, { code });
  for (const state of ['ACCEPTED', 'WITHDRAWN', 'REJECTED']) {
    const res = await call(key, 'PUT', `/contacts/${code}/consents`, { consent_state: state });
    expect(res.body).toEqual({ id });
    expect((await getContact(key, id)).consent_state).toBe(state);
  }
  expectError(await call(key, 'PUT', `/contacts/${id}/consents`, { consent_state: 'MAYBE' }), 400, 'INVALID_REQUEST', 'consent_state');
  expectError(await call(key, 'PUT', `/contacts/${id}/consents`, {}), 400, 'INVALID_REQUEST', 'consent_state');
  const other = await createTenant('Contacts consents other');
  expectError(await call(other.secretKey, 'PUT', `/contacts/${id}/consents`, { consent_state: 'ACCEPTED' }), 404, 'NOT_FOUND');
});

test('anonymise scrubs personal data; searching by any old value finds nothing; ids and accounts stay', async () => {
  const tag = unique('anon').toLowerCase().replace(/[^a-z0-9]/g, '');
  const code = `${tag}-CODE`;
  const id = await createContact(key, {
    code,
    title: 'Mrs',
    first_name: `Jane${tag}`,
    middle_name: 'Q',
    last_name: `Doe${tag}`,
    statutory_number: `${tag}-STAT`,
    notes: 'likes cats',
    referral_code: `${tag}-REF`,
    loyalty_identifier: `${tag}-LOY`,
    demographics: { gender: 'FEMALE', date_of_birth: { year: 1980, month: 1, day: 2 } },
    addresses: [{ address_line_1: '1 Secret Lane', country_code: 'CYP' }],
    phones: [{ number: '+357 99 555 123' }],
    email_address: `jane.${tag}@example.com`,
    custom_fields: [{ key: 'pet', value: 'cat' }],
    accounts: [{ name: 'Main' }],
  });
  // Credentials are deleted in the same transaction (the test only shows that it succeeds with them).
  expect((await call(key, 'POST', `/contacts/${id}/credentials`, { username: `jane${tag}`, password: 'correct horse battery' })).status).toBe(200);
  const before = (await search(key, { code, financials: true })).body.contacts[0];

  const res = await call(key, 'POST', `/contacts/${code}/anonymize`);
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id });

  const c = await getContact(key, id);
  expect(c).toMatchObject({
    id,
    is_anonymized: true,
    code: null,
    title: null,
    first_name: 'ANONYMIZED',
    middle_name: null,
    last_name: 'ANONYMIZED',
    statutory_number: null,
    notes: null,
    referral_code: null,
    loyalty_identifier: null,
    demographics: null,
    addresses: [],
    phones: [],
    emails: [],
    email_address: null,
    custom_fields: [],
  });
  const probes: Array<Record<string, string>> = [
    { search_value: `jane${tag}` },
    { search_value: `doe${tag}` },
    { search_value: code },
    { search_value: '99555123' },
    { search_value: `${tag}-loy` },
    { code },
    { first_name: `Jane${tag}` },
    { last_name: `Doe${tag}` },
    { email_address: `jane.${tag}@example.com` },
    { phone_number: '+357 99 555 123' },
    { statutory_number: `${tag}-STAT` },
    { loyalty_identifier: `${tag}-LOY` },
    { cim: `${tag}-LOY` },
  ];
  for (const probe of probes) expect({ probe, contacts: (await search(key, probe)).body.contacts }).toEqual({ probe, contacts: [] });
  expectError(await call(key, 'GET', `/contacts/${code}`), 404, 'NOT_FOUND');

  // The account (financial history) stays with the contact.
  const after = (await search(key, { search_value: 'anonymized', financials: true })).body.contacts.find((x: any) => x.id === id);
  expect(after.financials.account.id).toBe(before.financials.account.id);
});

test('an anonymised contact cannot be changed (409); anonymising again changes nothing', async () => {
  const id = await createContact(key, { contact_type: 'COMPANY', first_name: undefined, last_name: undefined, company_name: 'Gone Ltd' });
  expect((await call(key, 'POST', `/contacts/${id}/anonymize`)).status).toBe(200);
  expect((await getContact(key, id)).company_name).toBe('ANONYMIZED');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { company_name: 'Back Ltd' }), 409, 'CONTACT_ANONYMIZED');
  expectError(await call(key, 'PUT', `/contacts/${id}/consents`, { consent_state: 'ACCEPTED' }), 409, 'CONTACT_ANONYMIZED');
  expectError(await call(key, 'PUT', '/contacts', { contacts: [{ contact: { id }, custom_fields: [{ key: 'a', value: 'b' }] }] }), 409, 'CONTACT_ANONYMIZED', 'contacts.0.contact.id');
  expect((await call(key, 'POST', `/contacts/${id}/anonymize`)).body).toEqual({ id });
});

test("another organisation's contact cannot be anonymised", async () => {
  const other = await createTenant('Contacts anonymise other');
  const theirs = await createContact(other.secretKey);
  expectError(await call(key, 'POST', `/contacts/${theirs}/anonymize`), 404, 'NOT_FOUND');
  expect((await getContact(other.secretKey, theirs)).is_anonymized).toBe(false);
});
