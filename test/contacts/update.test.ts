// PUT /contacts/{id}: partial update by id or code, list items by id or added, custom fields
// upserted by key, the same rules as create, tenancy.
import { createTenant, type Tenant } from '../support/tenants';
import { call, createContact, createReference, expectError, getContact, unique } from './contact-helpers';

let t: Tenant;
let key: string;

beforeAll(async () => {
  t = await createTenant('Contacts update');
  key = t.secretKey;
});

test('only supplied fields change; by id and by code', async () => {
  const code = unique('U');
  const id = await createContact(key, { code, title: 'Ms', notes: 'keep', email_address: 'old@example.com', demographics: { gender: 'FEMALE', country_of_residence: 'FRA' } });
  const res = await call(key, 'PUT', `/contacts/${id}`, { first_name: 'Augusta', demographics: { country_of_residence: 'GBR' } });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id });
  const byCode = await call(key, 'PUT', `/contacts/${code}`, { email_address: 'new@example.com', direct_marketing: false });
  expect(byCode.body).toEqual({ id });
  const c = await getContact(key, id);
  expect(c).toMatchObject({
    first_name: 'Augusta',
    last_name: 'Lovelace',
    title: 'Ms',
    notes: 'keep',
    email_address: 'new@example.com',
    sms_opt_out: true,
    email_opt_out: true,
    demographics: { gender: 'FEMALE', country_of_residence: 'GBR' },
  });
  expect(c.emails).toHaveLength(1);
  // null clears an optional field; an empty body changes nothing.
  expect((await call(key, 'PUT', `/contacts/${id}`, { notes: null, title: null })).status).toBe(200);
  expect((await call(key, 'PUT', `/contacts/${id}`, {})).status).toBe(200);
  expect(await getContact(key, id)).toMatchObject({ notes: null, title: null, first_name: 'Augusta' });
});

test('addresses, phones and e-mails: with id the item changes, without id one is added; primary moves', async () => {
  const id = await createContact(key, {
    addresses: [{ address_type: 'HOME', address_line_1: 'Old street', country_code: 'CYP' }],
    phones: [{ phone_type: 'LANDLINE', number: '22000001' }],
    emails: [{ email_address: 'one@example.com' }],
  });
  const before = await getContact(key, id);
  const res = await call(key, 'PUT', `/contacts/${id}`, {
    addresses: [
      { id: before.addresses[0].id, address_line_1: 'New street' },
      { address_type: 'BUSINESS', address_line_1: 'Office', care_of: 'Reception', country_code: 'GRC', is_primary: true },
    ],
    phones: [{ id: before.phones[0].id, phone_type: 'FAX' }, { phone_type: 'LANDLINE', number: '22000002' }],
    emails: [{ email_type: 'PERSONAL', email_address: 'two@example.com', is_primary: true }],
  });
  expect(res.status).toBe(200);
  const c = await getContact(key, id);
  expect(c.addresses.map((a: any) => [a.id === before.addresses[0].id, a.address_line_1, a.is_primary, a.country])).toEqual([
    [true, 'New street', false, 'Cyprus'],
    [false, 'Office', true, 'Greece'],
  ]);
  expect(c.phones.map((p: any) => [p.phone_type, p.number, p.is_primary])).toEqual([
    ['FAX', '22000001', true],
    ['LANDLINE', '22000002', false],
  ]);
  expect(c.email_address).toBe('two@example.com');
  expect(c.emails.map((e: any) => e.is_primary)).toEqual([false, true]);
});

test('custom fields upsert by key', async () => {
  const id = await createContact(key, { custom_fields: [{ key: 'a', value: '1' }, { key: 'b', value: '2' }] });
  await call(key, 'PUT', `/contacts/${id}`, { custom_fields: [{ key: 'b', value: 'two' }, { key: 'c', value: 3 }] });
  expect((await getContact(key, id)).custom_fields).toEqual([
    { key: 'a', value: '1' },
    { key: 'b', value: 'two' },
    { key: 'c', value: '3' },
  ]);
});

test('company profile and category change by the alternative shape', async () => {
  const industry = await createReference(key, '/industries', 'Energy');
  const sector = await createReference(key, `/industries/${industry.id}/sectors`, 'Solar');
  const category = await createReference(key, '/contact_categories', 'Partner');
  const id = await createContact(key, { contact_type: 'COMPANY', first_name: undefined, last_name: undefined, company_name: 'Sun Co', company_profile: { profile_year: 2020 } });
  const res = await call(key, 'PUT', `/contacts/${id}`, {
    category: { id: category.id },
    company_profile: { industry: { id: industry.id }, industry_sectors: [sector.id], number_of_employees: 7 },
  });
  expect(res.status).toBe(200);
  expect(await getContact(key, id)).toMatchObject({
    category: { id: category.id, name: 'Partner' },
    company_profile: { profile_year: 2020, number_of_employees: 7, industry: { id: industry.id, name: 'Energy' }, industry_sectors: [{ id: sector.id, name: 'Solar' }] },
  });
  expectError(await call(key, 'PUT', `/contacts/${id}`, { title: 'Mr' }), 400, 'INVALID_REQUEST', 'title');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { company_name: null }), 400, 'INVALID_REQUEST', 'company_name');
});

test('validation names the field', async () => {
  const id = await createContact(key, { phones: [{ number: '123' }] });
  const other = await createContact(key, { code: unique('OTHER'), statutory_number: unique('ST') });
  const taken = await getContact(key, other);
  expectError(await call(key, 'PUT', `/contacts/${id}`, { first_name: null }), 400, 'INVALID_REQUEST', 'first_name');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { company_profile: { profile_year: 2000 } }), 400, 'INVALID_REQUEST', 'company_profile');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { phones: [{ phone_type: 'FAX' }] }), 400, 'INVALID_REQUEST', 'phones.0.number');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { addresses: [{ id: '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10', address_line_1: 'x' }] }), 400, 'INVALID_REQUEST', 'addresses.0.id');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { emails: [{ email_address: 'a@a.test', is_primary: true }, { email_address: 'b@b.test', is_primary: true }] }), 400, 'INVALID_REQUEST', 'emails.1.is_primary');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { category: { code: 'NOPE' } }), 400, 'INVALID_REQUEST', 'category');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { addresses: [{ country_code: 'ZZZ' }] }), 400, 'INVALID_REQUEST', 'addresses.0.country_code');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { contact_type: 'COMPANY' }), 400, 'INVALID_REQUEST', 'contact_type');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { code: taken.code }), 409, 'ALREADY_EXISTS', 'code');
  expectError(await call(key, 'PUT', `/contacts/${id}`, { statutory_number: taken.statutory_number }), 409, 'ALREADY_EXISTS', 'statutory_number');
  // Another contact's phone id is not an item of this contact.
  const phoneOfOther = (await getContact(key, await createContact(key, { phones: [{ number: '999' }] }))).phones[0].id;
  expectError(await call(key, 'PUT', `/contacts/${id}`, { phones: [{ id: phoneOfOther, number: '12345' }] }), 400, 'INVALID_REQUEST', 'phones.0.id');
});

test('unknown contact, and another organisation\'s contact by id or code: 404, nothing changes', async () => {
  const other = await createTenant('Contacts update other');
  const code = unique('THEIRS');
  const theirs = await createContact(other.secretKey, { code });
  expectError(await call(key, 'PUT', `/contacts/${theirs}`, { first_name: 'Hacked' }), 404, 'NOT_FOUND');
  expectError(await call(key, 'PUT', `/contacts/${code}`, { first_name: 'Hacked' }), 404, 'NOT_FOUND');
  expectError(await call(key, 'PUT', '/contacts/no-such-code', { first_name: 'X' }), 404, 'NOT_FOUND');
  expect((await getContact(other.secretKey, theirs)).first_name).toBe('Ada');
});
