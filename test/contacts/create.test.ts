// POST /contacts: both body shapes of spec 2.1, PERSON/COMPANY rules, uniqueness, primaries,
// reference lookups, accounts made at creation, concurrency, authorisation, idempotency.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { GUID, call, createContact, createReference, expectError, getContact, unique } from './contact-helpers';

let t: Tenant;
let key: string;

beforeAll(async () => {
  t = await createTenant('Contacts create');
  key = t.secretKey;
});

test('a PERSON with the main shape: every stored field comes back, with the derived ones', async () => {
  const category = await createReference(key, '/contact_categories', 'Gold');
  const code = unique('P');
  const res = await call(key, 'POST', '/contacts', {
    contact_type: 'PERSON',
    code,
    title: 'Dr',
    first_name: 'Grace',
    middle_name: 'Brewster',
    last_name: 'Hopper',
    preferred_language_code: 'ENG',
    statutory_number: unique('S'),
    notes: 'met at the fair',
    sms_opt_out: true,
    email_opt_out: 'false',
    is_tax_exempt: true,
    category_id: category.id,
    demographics: { gender: 'FEMALE', country_of_residence: 'usa', date_of_birth: { year: 1906, month: 12, day: 9 }, name_day: { month: 12, day: 9 } },
    addresses: [
      { address_type: 'HOME', address_line_1: '1 Navy Way', town_city: 'Arlington', postal_code: '22202', country_code: 'USA' },
      { address_type: 'BUSINESS', is_primary: true, address_line_1: '2 Yard St', country_code: 'GBR', lat: 51.5, lon: -0.12, googlePlaceId: 'ChIJ123' },
    ],
    phones: [{ phone_type: 'LANDLINE', country_code: 'USA', number: '+1 202 555 0101' }],
    email_address: 'grace@example.com',
    custom_fields: [{ key: 'shoe_size', value: '38' }],
    referral_code: 'REF1',
    loyalty_identifier: unique('L'),
  });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: expect.stringMatching(GUID) });

  const c = await getContact(key, res.body.id);
  expect(c).toMatchObject({
    id: res.body.id,
    code,
    contact_type: 'PERSON',
    contact_name: 'Grace Hopper',
    title: 'Dr',
    middle_name: 'Brewster',
    preferred_language_code: 'eng',
    sms_opt_out: true,
    email_opt_out: false,
    direct_marketing: false,
    is_tax_exempt: true,
    category: { id: category.id, name: 'Gold' },
    demographics: { gender: 'FEMALE', country_of_residence: 'USA', date_of_birth: { year: 1906, month: 12, day: 9 } },
    company_profile: null,
    email_address: 'grace@example.com',
    emails: [{ id: expect.stringMatching(GUID), email_type: 'PERSONAL', is_primary: true, email_address: 'grace@example.com' }],
    custom_fields: [{ key: 'shoe_size', value: '38' }],
    consent_state: null,
    is_anonymized: false,
    interaction_status: 'RESTING',
    total_spend: 0,
    kyc_profile: null,
    kyc_status: null,
    referral_code: 'REF1',
  });
  expect(c.registered_on).toBeGreaterThan(Date.now() / 1000 - 120);
  expect(c.addresses).toEqual([
    expect.objectContaining({ address_type: 'HOME', is_primary: false, country_code: 'USA', country: 'United States of America', lat: null, googlePlaceId: null }),
    expect.objectContaining({ address_type: 'BUSINESS', is_primary: true, country: 'United Kingdom', lat: 51.5, lon: -0.12, googlePlaceId: 'ChIJ123', care_of: null }),
  ]);
  expect(c.phones).toEqual([{ id: expect.stringMatching(GUID), phone_type: 'LANDLINE', is_primary: true, country_code: 'USA', number: '+1 202 555 0101' }]);
});

test('a COMPANY with the alternative shape: references by code, emails[], accounts, care_of', async () => {
  const category = await createReference(key, '/contact_categories', 'Wholesale');
  const industry = await createReference(key, '/industries', 'Retail');
  const sector = await createReference(key, `/industries/${industry.id}/sectors`, 'Groceries');
  const classification = await createReference(key, '/account_classifications', 'Business');
  const res = await call(key, 'POST', '/contacts', {
    contact_type: 'COMPANY',
    company_name: 'Acme Ltd',
    direct_marketing: true,
    affiliate_marketing: 'true',
    category: { code: category.code },
    company_profile: {
      industry: { code: industry.code },
      industry_sectors: [{ code: sector.code }],
      number_of_employees: 120,
      annual_turnover: 1500000.5,
      registration_country: 'CYP',
    },
    emails: [
      { email_type: 'PERSONAL', email_address: 'info@acme.test' },
      { email_type: 'CUSTOM3', is_primary: true, email_address: 'billing@acme.test' },
    ],
    addresses: [{ address_type: 'BUSINESS', care_of: 'Finance dept', address_line_1: '5 Main St', country_code: 'CYP' }],
    accounts: [
      { name: 'Main', credit_limit: 2500.25, currency_code: 'usd', credit_rating: 'AA', is_tax_exempt: true, classification: { code: classification.code } },
      { name: 'Second', is_primary: true },
    ],
  });
  expect(res.status).toBe(200);
  const c = await getContact(key, res.body.id);
  expect(c).toMatchObject({
    contact_name: 'Acme Ltd',
    sms_opt_out: false,
    email_opt_out: false,
    direct_marketing: true,
    affiliate_marketing: true,
    category: { id: category.id, name: 'Wholesale' },
    company_profile: {
      industry: { id: industry.id, name: 'Retail' },
      industry_sectors: [{ id: sector.id, name: 'Groceries' }],
      number_of_employees: 120,
      annual_turnover: 1500000.5,
      registration_country: 'CYP',
    },
    email_address: 'billing@acme.test',
    addresses: [expect.objectContaining({ care_of: 'Finance dept', is_primary: true, country: 'Cyprus' })],
  });
  expect(c.emails.map((e: any) => [e.email_address, e.is_primary])).toEqual([
    ['info@acme.test', false],
    ['billing@acme.test', true],
  ]);
  const s = await call(key, 'GET', `/contacts?company_name=Acme%20Ltd&financials=true`);
  const mine = s.body.contacts.find((x: any) => x.id === res.body.id);
  expect(mine.financials.account).toEqual({ id: expect.stringMatching(GUID), number: expect.stringMatching(/^\d{10}$/), life_cycle_state: 'ACTIVE', currency_code: 'EUR', overdue_amount: 0, balance: 0 });
});

test('create_default_account makes one primary account with system defaults; client-supplied id is kept', async () => {
  const id = '0190f0e4-7b3a-7c1e-9a55-' + Date.now().toString(16).padStart(12, '0').slice(-12);
  const res = await call(key, 'POST', '/contacts', { id: id.replace(/-/g, '').toUpperCase(), contact_type: 'PERSON', first_name: 'A', last_name: 'B', create_default_account: true, addresses: [{ address_line_1: 'x', country_code: 'DEU' }] });
  expect(res.body).toEqual({ id });
  const s = await call(key, 'GET', `/contacts?financials=true&last_name=B&first_name=A`);
  const item = s.body.contacts.find((x: any) => x.id === id);
  expect(item.financials).toEqual({ account: expect.objectContaining({ currency_code: 'EUR', life_cycle_state: 'ACTIVE' }), wallet: null });
  expectError(await call(key, 'POST', '/contacts', { id, contact_type: 'PERSON', first_name: 'A', last_name: 'B' }), 409, 'ALREADY_EXISTS', 'id');
});

test('country codes: ISO 3166 alpha-2 or alpha-3 in any case, stored and answered as alpha-3', async () => {
  const res = await call(key, 'POST', '/contacts', {
    contact_type: 'PERSON', first_name: 'Two', last_name: 'Letters',
    demographics: { country_of_residence: 'cy' },
    addresses: [{ address_line_1: '1 Ledra St', country_code: 'CY' }, { address_line_1: '2 Baker St', country_code: 'gbr' }],
    phones: [{ number: '+357 99 000222', country_code: 'cy' }],
  });
  expect(res.status).toBe(200);
  const c = await getContact(key, res.body.id);
  expect(c.addresses.map((a: any) => [a.country_code, a.country])).toEqual([['CYP', 'Cyprus'], ['GBR', 'United Kingdom']]);
  expect(c.phones[0].country_code).toBe('CYP');
  expect(c.demographics.country_of_residence).toBe('CYP');
});

test('PERSON and COMPANY rules name the field', async () => {
  const person = { contact_type: 'PERSON', first_name: 'A', last_name: 'B' };
  const company = { contact_type: 'COMPANY', company_name: 'C' };
  expectError(await call(key, 'POST', '/contacts', { contact_type: 'PERSON', last_name: 'B' }), 400, 'INVALID_REQUEST', 'first_name');
  expectError(await call(key, 'POST', '/contacts', { contact_type: 'PERSON', first_name: 'A' }), 400, 'INVALID_REQUEST', 'last_name');
  expectError(await call(key, 'POST', '/contacts', { contact_type: 'COMPANY' }), 400, 'INVALID_REQUEST', 'company_name');
  expectError(await call(key, 'POST', '/contacts', { ...company, title: 'Mr' }), 400, 'INVALID_REQUEST', 'title');
  expectError(await call(key, 'POST', '/contacts', { ...company, middle_name: 'X' }), 400, 'INVALID_REQUEST', 'middle_name');
  expectError(await call(key, 'POST', '/contacts', { ...company, demographics: { gender: 'MALE' } }), 400, 'INVALID_REQUEST', 'demographics');
  expectError(await call(key, 'POST', '/contacts', { ...person, company_profile: { profile_year: 2020 } }), 400, 'INVALID_REQUEST', 'company_profile');
  expectError(await call(key, 'POST', '/contacts', { contact_type: 'ROBOT' }), 400, 'INVALID_REQUEST', 'contact_type');
  expectError(await call(key, 'POST', '/contacts', { ...person, shoe: 1 }), 400, 'INVALID_REQUEST', 'shoe');
});

test('field validation names the field', async () => {
  const p = { contact_type: 'PERSON', first_name: 'A', last_name: 'B' };
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ addresses: [{ country_code: 'XXX' }] }, 'addresses.0.country_code'],
    [{ addresses: [{ country_code: 'ZZ' }] }, 'addresses.0.country_code'],
    [{ addresses: [{ country_code: 'C' }] }, 'addresses.0.country_code'],
    [{ demographics: { country_of_residence: 'UK' } }, 'demographics.country_of_residence'],
    [{ phones: [{ number: 'call me' }] }, 'phones.0.number'],
    [{ phones: [{ country_code: 'CYP' }] }, 'phones.0.number'],
    [{ email_address: 'not-an-email' }, 'email_address'],
    [{ emails: [{ email_address: 'a@b.test' }, { email_address: 'nope' }] }, 'emails.1.email_address'],
    [{ preferred_language_code: 'english' }, 'preferred_language_code'],
    [{ demographics: { gender: 'OTHER' } }, 'demographics.gender'],
    [{ demographics: { date_of_birth: { year: 2001, month: 2, day: 30 } } }, 'demographics.date_of_birth'],
    [{ accounts: [{ currency_code: 'EURO' }] }, 'accounts.0.currency_code'],
    [{ accounts: [{ credit_limit: -5 }] }, 'accounts.0.credit_limit'],
    [{ custom_fields: [{ value: 'x' }] }, 'custom_fields.0.key'],
    [{ category: {} }, 'category'],
    [{ id: 'not-a-guid' }, 'id'],
    [{ sms_opt_out: 'yes' }, 'sms_opt_out'],
  ];
  for (const [extra, attribute] of cases) {
    expectError(await call(key, 'POST', '/contacts', { ...p, ...extra }), 400, 'INVALID_REQUEST', attribute);
  }
});

test('one primary per list; two primaries name the second; the first item is primary by default', async () => {
  const p = { contact_type: 'PERSON', first_name: 'A', last_name: 'B' };
  expectError(await call(key, 'POST', '/contacts', { ...p, addresses: [{ is_primary: true }, { is_primary: true }] }), 400, 'INVALID_REQUEST', 'addresses.1.is_primary');
  expectError(await call(key, 'POST', '/contacts', { ...p, phones: [{ number: '1234', is_primary: true }, { number: '5678', is_primary: true }] }), 400, 'INVALID_REQUEST', 'phones.1.is_primary');
  expectError(await call(key, 'POST', '/contacts', { ...p, emails: [{ email_address: 'a@a.test', is_primary: true }, { email_address: 'b@b.test', is_primary: 'true' }] }), 400, 'INVALID_REQUEST', 'emails.1.is_primary');
  expectError(await call(key, 'POST', '/contacts', { ...p, accounts: [{ is_primary: true }, { is_primary: true }] }), 400, 'INVALID_REQUEST', 'accounts.1.is_primary');
  const id = await createContact(key, { phones: [{ number: '111' }, { number: '222' }] });
  const c = await getContact(key, id);
  expect(c.phones.map((x: any) => x.is_primary)).toEqual([true, false]);
});

test('conflicting shapes are refused', async () => {
  const p = { contact_type: 'PERSON', first_name: 'A', last_name: 'B' };
  expectError(await call(key, 'POST', '/contacts', { ...p, direct_marketing: true, sms_opt_out: true }), 400, 'INVALID_REQUEST', 'direct_marketing');
  expectError(await call(key, 'POST', '/contacts', { ...p, email_address: 'a@a.test', emails: [] }), 400, 'INVALID_REQUEST', 'emails');
});

test('unknown references answer 400 naming the attribute', async () => {
  const p = { contact_type: 'PERSON', first_name: 'A', last_name: 'B' };
  const c = { contact_type: 'COMPANY', company_name: 'C' };
  const ghost = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';
  expectError(await call(key, 'POST', '/contacts', { ...p, category_id: ghost }), 400, 'INVALID_REQUEST', 'category_id');
  expectError(await call(key, 'POST', '/contacts', { ...p, category: { code: 'NOPE' } }), 400, 'INVALID_REQUEST', 'category');
  expectError(await call(key, 'POST', '/contacts', { ...c, company_profile: { industry_id: ghost } }), 400, 'INVALID_REQUEST', 'company_profile.industry_id');
  expectError(await call(key, 'POST', '/contacts', { ...c, company_profile: { industry: { code: 'NOPE' } } }), 400, 'INVALID_REQUEST', 'company_profile.industry');
  expectError(await call(key, 'POST', '/contacts', { ...c, company_profile: { industry_sectors: [ghost] } }), 400, 'INVALID_REQUEST', 'company_profile.industry_sectors.0');
  expectError(await call(key, 'POST', '/contacts', { ...p, accounts: [{ classification_id: ghost }] }), 400, 'INVALID_REQUEST', 'accounts.0.classification_id');
  expectError(await call(key, 'POST', '/contacts', { ...p, accounts: [{}, { classification: { code: 'NOPE' } }] }), 400, 'INVALID_REQUEST', 'accounts.1.classification');
  // Another organisation's category is unknown here.
  const other = await createTenant('Contacts create other');
  const foreign = await createReference(other.secretKey, '/contact_categories', 'Foreign');
  expectError(await call(key, 'POST', '/contacts', { ...p, category_id: foreign.id }), 400, 'INVALID_REQUEST', 'category_id');
});

test('code and statutory number are unique per organisation, not across organisations', async () => {
  const code = unique('DUP');
  const statutory = unique('STAT');
  await createContact(key, { code, statutory_number: statutory });
  expectError(await call(key, 'POST', '/contacts', { contact_type: 'PERSON', first_name: 'A', last_name: 'B', code }), 409, 'ALREADY_EXISTS', 'code');
  expectError(await call(key, 'POST', '/contacts', { contact_type: 'PERSON', first_name: 'A', last_name: 'B', statutory_number: statutory }), 409, 'ALREADY_EXISTS', 'statutory_number');
  const other = await createTenant('Contacts create unique');
  await createContact(other.secretKey, { code, statutory_number: statutory });
});

test('two concurrent creates with the same code: exactly one wins', async () => {
  const code = unique('RACE');
  const body = { contact_type: 'PERSON', first_name: 'A', last_name: 'B', code };
  const results = await Promise.all([call(key, 'POST', '/contacts', body), call(key, 'POST', '/contacts', body)]);
  expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  const loser = results.find((r) => r.status === 409)!;
  expectError(loser, 409, 'ALREADY_EXISTS', 'code');
});

test('authorisation: no key 401, a public key 403, a key without contacts:write 403', async () => {
  expect((await call('', 'POST', '/contacts', { contact_type: 'PERSON', first_name: 'A', last_name: 'B' })).status).toBe(401);
  expectError(await call(t.publicKey, 'POST', '/contacts', { contact_type: 'PERSON', first_name: 'A', last_name: 'B' }), 403, 'FORBIDDEN');
  const made = await call(key, 'POST', '/api_keys', { name: 'read only', scopes: ['contacts:read'] });
  expect(made.status).toBe(200);
  expectError(await call(made.body.key, 'POST', '/contacts', { contact_type: 'PERSON', first_name: 'A', last_name: 'B' }), 403, 'FORBIDDEN');
  expect((await call(made.body.key, 'GET', '/contacts')).status).toBe(200);
});

test('Idempotency-Key: a repeated create returns the first answer and makes no second contact', async () => {
  const code = unique('IDEM');
  const body = { contact_type: 'PERSON', first_name: 'Once', last_name: 'Only', code };
  const headers = { 'Idempotency-Key': unique('key') };
  const first = await api('POST', '/contacts', { key, body, headers });
  const second = await api('POST', '/contacts', { key, body, headers });
  expect(first.status).toBe(200);
  expect(second.status).toBe(200);
  expect(second.body).toEqual(first.body);
  const found = await call(key, 'GET', `/contacts?code=${code}`);
  expect(found.body.paging.total).toBe(1);
});

test('the same custom field key twice is refused, naming the second', async () => {
  const p = { contact_type: 'PERSON', first_name: 'A', last_name: 'B' };
  expectError(await call(key, 'POST', '/contacts', { ...p, custom_fields: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }] }), 400, 'INVALID_REQUEST', 'custom_fields.1.key');
});

test('a create the database refuses writes nothing: no list item or account lands on the contact holding its id', async () => {
  const id = await createContact(key, { code: unique('HOLD'), phones: [{ number: '+357 99 111111' }] });
  const code = unique('HALF');
  const body = {
    contact_type: 'PERSON', first_name: 'Half', last_name: 'Written', code,
    phones: [{ number: '+357 99 222222' }], email_address: 'half@example.com', addresses: [{ town_city: 'Nicosia' }],
    custom_fields: [{ key: 'half', value: 'yes' }], accounts: [{ name: 'Second' }],
  };
  // The contact row is refused (the id is taken) in the statement that writes the lists too.
  expectError(await call(key, 'POST', '/contacts', { ...body, id }), 409, 'ALREADY_EXISTS', 'id');
  const holder = await getContact(key, id);
  expect([holder.phones.map((p: { number: string }) => p.number), holder.emails, holder.addresses, holder.custom_fields]).toEqual([['+357 99 111111'], [], [], []]);
  expect((await call(key, 'GET', `/contacts/${id}/accounts`)).body.paging.total).toBe(0);
  // Nothing took the code either: the same body under a new id is created.
  expect((await call(key, 'POST', '/contacts', body)).status).toBe(200);
});
