// POST /contact_profiles (docs/analysis.md): each selector (ids, codes, search), the profile's
// fields, request order, the cap of 100, 400s naming fields, unknown and other organisations'
// contacts (400 naming the item), 401/403.
import { randomUUID } from 'node:crypto';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, keyWith } from '../money/helpers';
import { now } from './seed';

let t: Tenant;
let other: Tenant;
let key: string;
const tag = `p${process.pid}${Date.now().toString(36)}`;
const p: Record<string, any> = {};

const profiles = (body: unknown, k = key) => api('POST', '/contact_profiles', { key: k, body });
async function ids(body: unknown): Promise<string[]> {
  const res = await profiles(body);
  expect(res.status).toBe(200);
  return res.body.contacts.map((c: { id: string }) => c.id);
}

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant('Contact profiles'), createTenant('Contact profiles other')]);
  key = t.secretKey;
  p.category = await createId(key, '/contact_categories', { code: `VIP-${tag}`, name: 'VIP' });
  p.industry = await createId(key, '/industries', { code: `IND-${tag}`, name: 'Retail' });
  p.sector = await createId(key, `/industries/${p.industry}/sectors`, { code: `SEC-${tag}`, name: 'Groceries' });
  p.pia = await createId(key, '/contacts', {
    contact_type: 'PERSON', code: `PIA-${tag}`, first_name: 'Pia', last_name: 'Person', preferred_language_code: 'ENG', category_id: p.category,
    demographics: { gender: 'FEMALE', date_of_birth: { year: 1990, month: 12, day: 10 }, name_day: { month: 6, day: 29 } },
    emails: [{ email_address: `first.${tag}@example.com`, is_primary: false }, { email_address: `main.${tag}@example.com`, is_primary: true }],
    phones: [{ number: '+357 99 111111', is_primary: false }, { number: '+357 99 222222', is_primary: true }],
    addresses: [
      { address_type: 'HOME', is_primary: false, town_city: 'Nicosia', postal_code: '1000', country_code: 'CYP' },
      { address_type: 'BUSINESS', is_primary: true, town_city: 'Limassol', state_province_county: 'Lemesos', postal_code: '3030', country_code: 'CYP' },
    ],
    accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }, { name: 'Dollars', currency_code: 'USD' }],
  });
  const accounts = (await api('GET', `/contacts/${p.pia}/accounts`, { key })).body.accounts as Array<{ id: string; is_primary: boolean; number: string }>;
  p.main = accounts.find((a) => a.is_primary)!;
  p.dollars = accounts.find((a) => !a.is_primary)!;
  p.wallet = await createId(key, `/accounts/${p.main.id}/wallets`, {});
  await createId(key, '/journals', { wallet_id: p.wallet, amount: 25.5, type: 'CREDIT' });
  await createId(key, `/contacts/${p.pia}/payment_methods`, {
    payment_method_type: 'CARD', card: { card_number: '411111******1111', last4: '1111', expiration_month: 1, expiration_year: 2040, brand: 'VISA', funding_type: 'DEBIT' },
  });
  await createId(key, `/contacts/${p.pia}/payment_methods`, { payment_method_type: 'BANK', bank: { iban: 'GB82WEST12345698765432' }, is_default: true });
  p.club = await createId(key, '/reward_schemes', { name: 'Club', sign_up_option: 'OPEN' });
  p.former = await createId(key, '/reward_schemes', { name: 'Former', sign_up_option: 'OPEN' });
  p.signedUp = now() - 3600;
  await createId(key, `/accounts/${p.main.id}/reward_schemes`, { reward_scheme_id: p.club, signed_up_on: p.signedUp });
  await createId(key, `/accounts/${p.main.id}/reward_schemes`, { reward_scheme_id: p.former });
  expect((await api('DELETE', `/accounts/${p.main.id}/reward_schemes/${p.former}`, { key })).status).toBe(200);
  p.acme = await createId(key, '/contacts', {
    contact_type: 'COMPANY', code: `ACME-${tag}`, company_name: `Acme ${tag}`, company_profile: { industry_id: p.industry, industry_sectors: [p.sector] },
  });
  p.theirs = await createId(other.secretKey, '/contacts', { contact_type: 'PERSON', code: `PIA-${tag}`, first_name: 'Pia', last_name: 'Elsewhere' });
});

test('by ids: the full profile, in request order, each contact once', async () => {
  const res = await profiles({ ids: [p.pia, p.acme.replace(/-/g, '').toUpperCase(), p.pia] });
  expect(res.status).toBe(200);
  const [pia, acme] = res.body.contacts;
  expect(res.body.contacts).toHaveLength(2);
  expect(pia).toEqual({
    id: p.pia, code: `PIA-${tag}`, type: 'PERSON', name: 'Pia', surname: 'Person', gender: 'FEMALE', preferred_language: 'eng',
    email: `main.${tag}@example.com`, phone: '+357 99 222222',
    category: { id: p.category, name: 'VIP' }, industry: null, industry_sectors: [],
    birthday: { day: 10, month: 12, year: 1990 }, nameday: { day: 29, month: 6 },
    location: { city: 'Limassol', province: 'Lemesos', country: 'CYP', postal_code: '3030' },
    payment_method: { type: 'BANK', funding_type: null, brand: null },
    financials: [
      {
        account: { id: p.main.id, number: p.main.number, name: 'Main', is_primary: true, life_cycle_state: 'ACTIVE', currency_code: 'EUR', balance: 0 },
        wallet: { id: p.wallet, code: expect.stringMatching(/^\d{16}$/), life_cycle_state: 'EFFECTIVE', currency_code: 'EUR', balance: 25.5 },
      },
      { account: { id: p.dollars.id, number: p.dollars.number, name: 'Dollars', is_primary: false, life_cycle_state: 'ACTIVE', currency_code: 'USD', balance: 0 }, wallet: null },
    ],
    reward_schemes: [{ id: p.club, name: 'Club', signed_up_date: p.signedUp }],
  });
  expect(acme).toEqual({
    id: p.acme, code: `ACME-${tag}`, type: 'COMPANY', name: `Acme ${tag}`, surname: null, gender: null, preferred_language: null,
    email: null, phone: null, category: null, industry: { id: p.industry, name: 'Retail' }, industry_sectors: [{ id: p.sector, name: 'Groceries' }],
    birthday: null, nameday: null, location: null, payment_method: null, financials: [], reward_schemes: [],
  });
});

test('by codes, in request order; by search, with the filters of GET /contacts', async () => {
  expect(await ids({ codes: [`ACME-${tag}`, `PIA-${tag}`] })).toEqual([p.acme, p.pia]);
  expect(await ids({ search: { email_address: `MAIN.${tag}@example.com` } })).toEqual([p.pia]);
  expect(await ids({ search: { search_value: `acme ${tag}` } })).toEqual([p.acme]);
  expect(await ids({ search: { last_name: 'Elsewhere' } })).toEqual([]);
  // Newest registered first.
  expect(await ids({ search: { search_value: tag } })).toEqual([p.acme, p.pia]);
});

test("an unknown id or code, or another organisation's, is 400 naming the item", async () => {
  expectError(await profiles({ ids: [p.pia, randomUUID()] }), 400, 'INVALID_REQUEST', 'ids.1');
  expectError(await profiles({ ids: [p.theirs] }), 400, 'INVALID_REQUEST', 'ids.0');
  expectError(await profiles({ codes: [`PIA-${tag}`, 'NO-SUCH'] }), 400, 'INVALID_REQUEST', 'codes.1');
  // Their code is the same as Pia's: each organisation sees its own contact only.
  const theirs = await profiles({ codes: [`PIA-${tag}`] }, other.secretKey);
  expect(theirs.body.contacts.map((c: { id: string; surname: string }) => [c.id, c.surname])).toEqual([[p.theirs, 'Elsewhere']]);
  expectError(await profiles({ ids: [p.pia] }, other.secretKey), 400, 'INVALID_REQUEST', 'ids.0');
});

test('exactly one selector, well formed: 400 naming the field', async () => {
  expectError(await profiles({}), 400, 'INVALID_REQUEST', 'ids');
  expectError(await profiles({ ids: [p.pia], codes: [`PIA-${tag}`] }), 400, 'INVALID_REQUEST', 'codes');
  expectError(await profiles({ codes: ['X'], search: {} }), 400, 'INVALID_REQUEST', 'search');
  expectError(await profiles({ ids: [] }), 400, 'INVALID_REQUEST', 'ids');
  expectError(await profiles({ ids: ['pia'] }), 400, 'INVALID_REQUEST', 'ids.0');
  expectError(await profiles({ codes: [''] }), 400, 'INVALID_REQUEST', 'codes.0');
  expectError(await profiles({ search: { shoe_size: 42 } }), 400, 'INVALID_REQUEST', 'search.shoe_size');
  expectError(await profiles({ search: { registered_on_from: 'today' } }), 400, 'INVALID_REQUEST', 'search.registered_on_from');
  expectError(await profiles({ ids: [p.pia], everything: true }), 400, 'INVALID_REQUEST', 'everything');
});

test('at most 100: more ids is 400 naming ids; a search matching more is 400 naming search', async () => {
  expectError(await profiles({ ids: Array.from({ length: 101 }, () => randomUUID()) }), 400, 'INVALID_REQUEST', 'ids');
  const bulk = `Bulk${tag}`;
  for (let i = 0; i < 100; i += 10) {
    await Promise.all(Array.from({ length: 10 }, (_, j) => createId(key, '/contacts', { contact_type: 'PERSON', first_name: `N${i + j}`, last_name: bulk })));
  }
  expect(await ids({ search: { last_name: bulk } })).toHaveLength(100);
  await createId(key, '/contacts', { contact_type: 'PERSON', first_name: 'One more', last_name: bulk });
  expectError(await profiles({ search: { last_name: bulk } }), 400, 'INVALID_REQUEST', 'search');
});

test('401 without a credential; 403 without contacts:read', async () => {
  expectError(await api('POST', '/contact_profiles', { body: { ids: [p.pia] } }), 401, 'INVALID_CREDENTIAL');
  expectError(await profiles({ ids: [p.pia] }, await keyWith(key, ['reports'])), 403, 'FORBIDDEN');
  expect((await profiles({ ids: [p.pia] }, await keyWith(key, ['contacts:read']))).status).toBe(200);
});
