// Reward schemes over HTTPS: the sign-up option with its codes or e-mail domains, merchants of
// the business network, the one shape of reference data (docs/loyalty-reference.md).
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { createId, expectError, openDatabase, UNKNOWN_ID } from '../../money/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
let cafe: string;
let bakery: string;
let venue: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Schemes A'), createTenant('Schemes B')]);
  root = openDatabase();
  cafe = await createId(a.secretKey, '/organisations', { code: 'RS-CAFE', name: 'Cafe', type: 'MERCHANT' });
  bakery = await createId(a.secretKey, '/organisations', { code: 'RS-BAKERY', name: 'Bakery', type: 'MERCHANT' });
  venue = await createId(a.secretKey, '/organisations', { code: 'RS-HALL', name: 'Hall', type: 'VENUE', parent_id: cafe });
});

afterAll(async () => {
  await root?.$disconnect();
});

const post = (body: object, key = a.secretKey) => api('POST', '/reward_schemes', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/reward_schemes/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/reward_schemes/${id}`, { key, body });
const list = async (query: string, key = a.secretKey) => (await api('GET', `/reward_schemes?${query}`, { key })).body;

test('create, get, list, partial update, delete; every write audited', async () => {
  const id = await createId(a.secretKey, '/reward_schemes', {
    name: 'Staff club',
    code: 'STAFF',
    description: 'Partner employees',
    sign_up_option: 'EMAIL_DOMAIN',
    allowed_domains: ['Example.COM', '@staff.example.org', ' xn--bcher-kva.example '],
    merchants: [bakery, cafe],
  });
  const got = await get(id);
  expect(got.status).toBe(200);
  expect(got.body).toEqual({
    id,
    code: 'STAFF',
    name: 'Staff club',
    description: 'Partner employees',
    sign_up_option: 'EMAIL_DOMAIN',
    sign_up_codes: [],
    allowed_domains: ['example.com', 'staff.example.org', 'xn--bcher-kva.example'],
    merchants: [
      { id: bakery, name: 'Bakery', code: 'RS-BAKERY' },
      { id: cafe, name: 'Cafe', code: 'RS-CAFE' },
    ],
    created_on: expect.any(Number),
    updated_on: expect.any(Number),
  });
  for (const query of ['code=STAFF', 'name=staff', 'search_value=staf', 'sign_up_option=EMAIL_DOMAIN']) {
    const page = await list(query);
    expect([query, page.content.map((s: { id: string }) => s.id)]).toEqual([query, [id]]);
  }
  expect((await list('code=STAFF')).content[0]).toEqual(got.body);
  expect((await list('sign_up_option=OPEN')).paging.total).toBe(0);

  // Only what is given changes; a list given replaces the list.
  expect((await put(id, { description: null, merchants: [cafe] })).body).toEqual({ id });
  expect((await get(id)).body).toMatchObject({ name: 'Staff club', description: null, allowed_domains: got.body.allowed_domains, merchants: [{ id: cafe }] });

  // Another option clears the former option's list; codes are shown on read.
  expect((await put(id, { sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: ['WELCOME', 'welcome'] })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: ['WELCOME', 'welcome'], allowed_domains: [] });
  expect((await put(id, { sign_up_option: 'OPEN' })).status).toBe(200);
  expect((await get(id)).body).toMatchObject({ sign_up_option: 'OPEN', sign_up_codes: [], allowed_domains: [] });

  expect((await api('DELETE', `/reward_schemes/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => [e.entityType, e.action])).toEqual([
    ['reward_scheme', 'CREATE'],
    ['reward_scheme', 'UPDATE'],
    ['reward_scheme', 'UPDATE'],
    ['reward_scheme', 'UPDATE'],
    ['reward_scheme', 'DELETE'],
  ]);
});

test('sign-up rules and fields: 400 naming the attribute, nothing written', async () => {
  const cases: Array<[object, string]> = [
    [{ sign_up_option: 'CLOSE_LOOP_SIGN_UP' }, 'sign_up_codes'],
    [{ sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: [] }, 'sign_up_codes'],
    [{ sign_up_option: 'OPEN', sign_up_codes: ['X'] }, 'sign_up_codes'],
    [{ sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['a.com'], sign_up_codes: ['X'] }, 'sign_up_codes'],
    [{ sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: ['A', 'A'] }, 'sign_up_codes.1'],
    [{ sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: ['   '] }, 'sign_up_codes.0'],
    [{ sign_up_option: 'EMAIL_DOMAIN' }, 'allowed_domains'],
    [{ sign_up_option: 'EMAIL_DOMAIN', allowed_domains: [] }, 'allowed_domains'],
    [{ sign_up_option: 'OPEN', allowed_domains: ['a.com'] }, 'allowed_domains'],
    [{ sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['a.com', 'not a domain'] }, 'allowed_domains.1'],
    [{ sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['localhost'] }, 'allowed_domains.0'],
    [{ sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['user@a.com'] }, 'allowed_domains.0'],
    [{ sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['-a.com'] }, 'allowed_domains.0'],
    [{ sign_up_option: 'EMAIL_DOMAIN', allowed_domains: ['a.com', '@A.com'] }, 'allowed_domains.1'],
    [{ sign_up_option: 'MAYBE' }, 'sign_up_option'],
    [{ sign_up_option: 'OPEN', merchants: [cafe, venue] }, 'merchants.1'],
    [{ sign_up_option: 'OPEN', merchants: [UNKNOWN_ID] }, 'merchants.0'],
    [{ sign_up_option: 'OPEN', merchants: [cafe, cafe.toUpperCase()] }, 'merchants.1'],
    [{ sign_up_option: 'OPEN', merchants: ['cafe'] }, 'merchants.0'],
    [{ sign_up_option: 'OPEN', code: 'a/b' }, 'code'],
  ];
  for (const [body, attribute] of cases) {
    expectError(await post({ name: 'Bad', code: 'RS-BAD', ...body }), 400, 'INVALID_REQUEST', attribute);
  }
  expectError(await post({ code: 'RS-BAD', sign_up_option: 'OPEN' }), 400, 'INVALID_REQUEST', 'name');
  expectError(await post({ name: 'Bad', code: 'RS-BAD' }), 400, 'INVALID_REQUEST', 'sign_up_option');
  expect((await list('code=RS-BAD')).paging.total).toBe(0);

  // On update the rule holds for the result; a refused update changes nothing.
  const id = await createId(a.secretKey, '/reward_schemes', { name: 'Closed', sign_up_option: 'CLOSE_LOOP_SIGN_UP', sign_up_codes: ['IN'], merchants: [cafe] });
  const before = (await get(id)).body;
  const updates: Array<[object, string]> = [
    [{ sign_up_codes: [] }, 'sign_up_codes'],
    [{ allowed_domains: ['a.com'] }, 'allowed_domains'],
    [{ sign_up_option: 'EMAIL_DOMAIN' }, 'allowed_domains'],
    [{ sign_up_option: 'OPEN', sign_up_codes: ['IN'] }, 'sign_up_codes'],
    [{ name: 'Renamed', merchants: [bakery, venue] }, 'merchants.1'],
  ];
  for (const [body, attribute] of updates) expectError(await put(id, body), 400, 'INVALID_REQUEST', attribute);
  expect((await get(id)).body).toEqual(before);
});

test('a code is unique within the organisation (409 ALREADY_EXISTS), not across organisations', async () => {
  await createId(a.secretKey, '/reward_schemes', { name: 'One', code: 'RS-DUP', sign_up_option: 'OPEN' });
  expectError(await post({ name: 'Two', code: 'RS-DUP', sign_up_option: 'OPEN' }), 409, 'ALREADY_EXISTS', 'code');
  const other = await createId(a.secretKey, '/reward_schemes', { name: 'Three', code: 'RS-OTHER', sign_up_option: 'OPEN' });
  expectError(await put(other, { code: 'RS-DUP' }), 409, 'ALREADY_EXISTS', 'code');
  expect((await post({ name: 'One in B', code: 'RS-DUP', sign_up_option: 'OPEN' }, b.secretKey)).status).toBe(200);
});

test('a scheme with offers, and a merchant a scheme names, cannot be deleted (409 IN_USE)', async () => {
  const unit = await createId(a.secretKey, '/organisations', { code: 'RS-USED', name: 'Used', type: 'MERCHANT' });
  const id = await createId(a.secretKey, '/reward_schemes', { name: 'Busy', sign_up_option: 'OPEN', merchants: [unit] });
  const offer = await createId(a.secretKey, '/reward_offers', { reward_scheme_id: id, name: 'Offer', award_type: 'FIXED', award_value: 1 });
  expectError(await api('DELETE', `/reward_schemes/${id}`, { key: a.secretKey }), 409, 'IN_USE');
  expectError(await api('DELETE', `/organisations/${unit}`, { key: a.secretKey }), 409, 'IN_USE');
  expect((await get(id)).status).toBe(200);
  expect((await api('DELETE', `/reward_offers/${offer}`, { key: a.secretKey })).status).toBe(200);
  expect((await api('DELETE', `/reward_schemes/${id}`, { key: a.secretKey })).status).toBe(200);
  expect((await api('DELETE', `/organisations/${unit}`, { key: a.secretKey })).status).toBe(200);
});

test("another organisation's scheme answers 404 like an unknown one; its merchants are unknown here", async () => {
  const id = await createId(a.secretKey, '/reward_schemes', { name: 'Private', code: 'RS-PRIVATE', sign_up_option: 'OPEN' });
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/reward_schemes/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await list('code=RS-PRIVATE', b.secretKey)).paging.total).toBe(0);
  expectError(await post({ name: 'Foreign', sign_up_option: 'OPEN', merchants: [cafe] }, b.secretKey), 400, 'INVALID_REQUEST', 'merchants.0');
  expect((await get(id)).body.name).toBe('Private');
});
