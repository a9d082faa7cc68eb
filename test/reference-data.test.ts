// Reference data over HTTPS: contact categories, industries and their sectors, KYC profiles,
// account classifications, name display settings.
import { api, type ApiResponse } from './support/api';
import { createTenant, type Tenant } from './support/tenants';

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Reference A'), createTenant('Reference B')]);
});

const LISTS = ['/contact_categories', '/industries', '/kyc_profiles', '/account_classifications'] as const;

function create(path: string, body: object, key = a.secretKey) {
  return api('POST', path, { key, body });
}

async function createId(path: string, body: object, key = a.secretKey): Promise<string> {
  const res = await create(path, body, key);
  expect(res.status).toBe(200);
  return res.body.id as string;
}

function expectError(res: ApiResponse, status: number, code: string, attribute?: string) {
  expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
  if (attribute !== undefined) expect(res.body.attribute).toBe(attribute);
  expect(typeof res.body.request_id).toBe('string');
}

describe.each(LISTS)('%s', (path) => {
  test('create, get, partial update, list, delete', async () => {
    const before = Math.floor(Date.now() / 1000) - 1;
    const id = await createId(path, { code: 'C1', name: 'First', description: 'the first one' });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const got = await api('GET', `${path}/${id}`, { key: a.secretKey });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, code: 'C1', name: 'First', description: 'the first one' });
    expect(got.body.created_on).toBeGreaterThanOrEqual(before);
    expect(got.body.updated_on).toBeGreaterThanOrEqual(got.body.created_on);

    const upd = await api('PUT', `${path}/${id}`, { key: a.secretKey, body: { name: 'Renamed', description: null } });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ id });
    const after = await api('GET', `${path}/${id.replace(/-/g, '').toUpperCase()}`, { key: a.secretKey });
    expect(after.body).toMatchObject({ id, code: 'C1', name: 'Renamed', description: null });

    const list = await api('GET', `${path}?code=C1`, { key: a.secretKey });
    expect(list.status).toBe(200);
    expect(list.body.paging).toEqual({ page: 1, size: 20, total: 1 });
    expect(list.body.content[0]).toMatchObject({ id, name: 'Renamed' });

    const del = await api('DELETE', `${path}/${id}`, { key: a.secretKey });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id });
    expectError(await api('GET', `${path}/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `${path}/${id}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  });

  test('the code is optional; without one any number of items may exist', async () => {
    await createId(path, { name: 'No code 1' });
    const id = await createId(path, { name: 'No code 2', code: null });
    expect((await api('GET', `${path}/${id}`, { key: a.secretKey })).body).toMatchObject({ code: null, description: null });
  });

  test('validation errors name the field', async () => {
    expectError(await create(path, {}), 400, 'INVALID_REQUEST', 'name');
    expectError(await create(path, { name: '   ' }), 400, 'INVALID_REQUEST', 'name');
    expectError(await create(path, { name: 'x', colour: 'red' }), 400, 'INVALID_REQUEST', 'colour');
    expectError(await create(path, { name: 'x', code: 'c'.repeat(101) }), 400, 'INVALID_REQUEST', 'code');
    expectError(await create(path, { name: 'x', description: 5 }), 400, 'INVALID_REQUEST', 'description');
    expectError(await api('GET', `${path}/not-a-guid`, { key: a.secretKey }), 400, 'INVALID_REQUEST', 'id');
    expectError(await api('GET', `${path}?sort=colour`, { key: a.secretKey }), 400, 'INVALID_REQUEST', 'sort');
    expectError(await api('GET', `${path}?size=101`, { key: a.secretKey }), 400, 'INVALID_REQUEST', 'size');
    const id = await createId(path, { name: 'Valid' });
    expectError(await api('PUT', `${path}/${id}`, { key: a.secretKey, body: { name: null } }), 400, 'INVALID_REQUEST', 'name');
  });

  test('a duplicate code answers 409 ALREADY_EXISTS, on create and on update; other tenants are independent', async () => {
    await createId(path, { code: 'DUP', name: 'One' });
    expectError(await create(path, { code: 'DUP', name: 'Two' }), 409, 'ALREADY_EXISTS', 'code');
    const other = await createId(path, { code: 'OTHER', name: 'Other' });
    expectError(await api('PUT', `${path}/${other}`, { key: a.secretKey, body: { code: 'DUP' } }), 409, 'ALREADY_EXISTS', 'code');
    // Keeping one's own code is not a conflict.
    expect((await api('PUT', `${path}/${other}`, { key: a.secretKey, body: { code: 'OTHER', name: 'Same code' } })).status).toBe(200);
    await createId(path, { code: 'DUP', name: 'In B' }, b.secretKey);
  });

  test('concurrent creates with one code: exactly one wins', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => create(path, { code: 'RACE', name: `Racer ${n}` })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body).toMatchObject({ code: 'ALREADY_EXISTS', attribute: 'code' });
  });

  test("another organisation's id answers 404 like an unknown one", async () => {
    const id = await createId(path, { name: 'Private to A' });
    const unknown = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';
    for (const target of [id, unknown]) {
      expectError(await api('GET', `${path}/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
      expectError(await api('PUT', `${path}/${target}`, { key: b.secretKey, body: { name: 'hijack' } }), 404, 'NOT_FOUND');
      expectError(await api('DELETE', `${path}/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
    }
    expect((await api('GET', `${path}/${id}`, { key: a.secretKey })).body.name).toBe('Private to A');
    const listB = await api('GET', `${path}?search_value=Private to A`, { key: b.secretKey });
    expect(listB.body.paging.total).toBe(0);
  });
});

describe('paging, sorting and filters', () => {
  let tenant: Tenant;
  const names = ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo'];

  beforeAll(async () => {
    tenant = await createTenant('Reference paging');
    for (const [i, name] of names.entries()) {
      // One at a time: default order is by creation.
      await createId('/kyc_profiles', { name, code: `K${i}` }, tenant.secretKey);
    }
  });

  const list = (query: string) => api('GET', `/kyc_profiles?${query}`, { key: tenant.secretKey });

  test('default: newest first, 20 per page', async () => {
    const res = await list('');
    expect(res.body.paging).toEqual({ page: 1, size: 20, total: 5 });
    expect(res.body.content.map((c: { name: string }) => c.name)).toEqual([...names].reverse());
  });

  test('pages', async () => {
    const res = await list('page=2&size=2&sort=code&order=ASC');
    expect(res.body.paging).toEqual({ page: 2, size: 2, total: 5 });
    expect(res.body.content.map((c: { code: string }) => c.code)).toEqual(['K2', 'K3']);
    const beyond = await list('page=4&size=2');
    expect(beyond.body.content).toEqual([]);
    expect(beyond.body.paging.total).toBe(5);
  });

  test('sort by name, both orders (order is case-insensitive)', async () => {
    const asc = await list('sort=name&order=asc');
    const desc = await list('sort=name&order=DESC');
    const ascNames = asc.body.content.map((c: { name: string }) => c.name);
    expect(ascNames).toHaveLength(5);
    expect(desc.body.content.map((c: { name: string }) => c.name)).toEqual([...ascNames].reverse());
    expect((await list('sort=created_on&order=ASC')).body.content.map((c: { name: string }) => c.name)).toEqual(names);
  });

  test('search_value matches name or code, case-insensitively; code and name filters', async () => {
    expect((await list('search_value=ALPH')).body.content.map((c: { name: string }) => c.name)).toEqual(['alpha']);
    expect((await list('search_value=k4')).body.content.map((c: { name: string }) => c.name)).toEqual(['Echo']);
    expect((await list('code=K2')).body.content.map((c: { name: string }) => c.name)).toEqual(['Charlie']);
    expect((await list('name=ECH')).body.content.map((c: { name: string }) => c.name)).toEqual(['Echo']);
    expect((await list('name=zulu')).body.paging.total).toBe(0);
  });

  test('an unknown sort field answers 400', async () => {
    expectError(await list('sort=description'), 400, 'INVALID_REQUEST', 'sort');
    expectError(await list('order=sideways'), 400, 'INVALID_REQUEST', 'order');
  });
});

describe('industries and their sectors', () => {
  test('sectors are created under an industry and listed with it; an industry with sectors cannot be deleted', async () => {
    const industry = await createId('/industries', { code: 'FIN', name: 'Finance' });
    const banking = await createId(`/industries/${industry}/sectors`, { code: 'BANK', name: 'Banking', description: 'retail banks' });
    const insurance = await createId(`/industries/${industry}/sectors`, { name: 'Insurance' });

    const got = await api('GET', `/industries/${industry}`, { key: a.secretKey });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: industry, code: 'FIN', name: 'Finance' });
    expect(got.body.sectors).toEqual([
      { id: banking, code: 'BANK', name: 'Banking' },
      { id: insurance, code: null, name: 'Insurance' },
    ]);

    const sector = await api('GET', `/industries/${industry}/sectors/${banking}`, { key: a.secretKey });
    expect(sector.body).toMatchObject({ id: banking, code: 'BANK', name: 'Banking', description: 'retail banks' });
    const sectors = await api('GET', `/industries/${industry}/sectors?sort=name&order=ASC`, { key: a.secretKey });
    expect(sectors.body.paging.total).toBe(2);
    expect(sectors.body.content.map((s: { id: string }) => s.id)).toEqual([banking, insurance]);

    expect((await api('PUT', `/industries/${industry}/sectors/${insurance}`, { key: a.secretKey, body: { code: 'INS' } })).status).toBe(200);
    expectError(await create(`/industries/${industry}/sectors`, { code: 'BANK', name: 'Again' }), 409, 'ALREADY_EXISTS', 'code');

    expectError(await api('DELETE', `/industries/${industry}`, { key: a.secretKey }), 409, 'IN_USE');
    expect((await api('GET', `/industries/${industry}`, { key: a.secretKey })).status).toBe(200);

    for (const id of [banking, insurance]) {
      expect((await api('DELETE', `/industries/${industry}/sectors/${id}`, { key: a.secretKey })).status).toBe(200);
    }
    expect((await api('DELETE', `/industries/${industry}`, { key: a.secretKey })).status).toBe(200);
  });

  test("a sector is only reachable under its own industry and its own organisation", async () => {
    const one = await createId('/industries', { name: 'One' });
    const two = await createId('/industries', { name: 'Two' });
    const sector = await createId(`/industries/${one}/sectors`, { name: 'Of one' });
    expectError(await api('GET', `/industries/${two}/sectors/${sector}`, { key: a.secretKey }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/industries/${two}/sectors/${sector}`, { key: a.secretKey }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/industries/${one}/sectors/${sector}`, { key: b.secretKey }), 404, 'NOT_FOUND');
    expectError(await api('GET', `/industries/${one}/sectors`, { key: b.secretKey }), 404, 'NOT_FOUND');
    expectError(await create(`/industries/${one}/sectors`, { name: 'Sneaky' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await create(`/industries/${one}/sectors`, { code: 5 }), 400, 'INVALID_REQUEST', 'code');
    expectError(await api('GET', `/industries/${one}/sectors/nope`, { key: a.secretKey }), 400, 'INVALID_REQUEST', 'sector_id');
  });
});

describe('reference data used by contacts', () => {
  test('a category in use cannot be deleted', async () => {
    const category = await createId('/contact_categories', { code: 'VIP', name: 'Very important' });
    const contact = await create('/contacts', { contact_type: 'PERSON', first_name: 'Ada', last_name: 'Lovelace', category_id: category });
    expect(contact.status).toBe(200);
    expectError(await api('DELETE', `/contact_categories/${category}`, { key: a.secretKey }), 409, 'IN_USE');
  });

  test("an account classification used by a contact's account cannot be deleted", async () => {
    const classification = await createId('/account_classifications', { code: 'GOLD', name: 'Gold' });
    const contact = await create('/contacts', {
      contact_type: 'PERSON',
      first_name: 'Grace',
      last_name: 'Hopper',
      accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR', classification_id: classification }],
    });
    expect(contact.status).toBe(200);
    expectError(await api('DELETE', `/account_classifications/${classification}`, { key: a.secretKey }), 409, 'IN_USE');
  });

  test('an industry or sector in use cannot be deleted', async () => {
    const industry = await createId('/industries', { name: 'Retail' });
    const sector = await createId(`/industries/${industry}/sectors`, { name: 'Groceries' });
    const contact = await create('/contacts', {
      contact_type: 'COMPANY',
      company_name: 'Corner Shop Ltd',
      company_profile: { industry_id: industry, industry_sectors: [sector] },
    });
    expect(contact.status).toBe(200);
    expectError(await api('DELETE', `/industries/${industry}/sectors/${sector}`, { key: a.secretKey }), 409, 'IN_USE');
    expectError(await api('DELETE', `/industries/${industry}`, { key: a.secretKey }), 409, 'IN_USE');
  });
});

describe('name display settings', () => {
  test('default FIRST_LAST until set; per organisation', async () => {
    const tenant = await createTenant('Reference names');
    const initial = await api('GET', '/name_display_settings', { key: tenant.secretKey });
    expect(initial.status).toBe(200);
    expect(initial.body).toEqual({ format: 'FIRST_LAST', updated_on: null });

    const set = await api('PUT', '/name_display_settings', { key: tenant.secretKey, body: { format: 'LAST_COMMA_FIRST' } });
    expect(set.status).toBe(200);
    expect(set.body.format).toBe('LAST_COMMA_FIRST');
    const now = await api('GET', '/name_display_settings', { key: tenant.secretKey });
    expect(now.body.format).toBe('LAST_COMMA_FIRST');
    expect(typeof now.body.updated_on).toBe('number');

    expect((await api('GET', '/name_display_settings', { key: b.secretKey })).body.format).toBe('FIRST_LAST');

    expectError(await api('PUT', '/name_display_settings', { key: tenant.secretKey, body: { format: 'SIDEWAYS' } }), 400, 'INVALID_REQUEST', 'format');
    expectError(await api('PUT', '/name_display_settings', { key: tenant.secretKey, body: {} }), 400, 'INVALID_REQUEST', 'format');
  });

  test("the setting shapes a contact's contact_name", async () => {
    const tenant = await createTenant('Reference contact names');
    const created = await create('/contacts', { contact_type: 'PERSON', title: 'Dr', first_name: 'Ada', last_name: 'Lovelace' }, tenant.secretKey);
    expect(created.status).toBe(200);
    const name = async () => (await api('GET', `/contacts/${created.body.id}`, { key: tenant.secretKey })).body.contact_name;
    expect(await name()).toBe('Ada Lovelace');
    await api('PUT', '/name_display_settings', { key: tenant.secretKey, body: { format: 'LAST_COMMA_FIRST' } });
    expect(await name()).toBe('Lovelace, Ada');
    await api('PUT', '/name_display_settings', { key: tenant.secretKey, body: { format: 'TITLE_FIRST_LAST' } });
    expect(await name()).toBe('Dr Ada Lovelace');
  });
});

describe('scopes', () => {
  async function keyWith(scopes: string[]): Promise<string> {
    const res = await api('POST', '/api_keys', { key: a.secretKey, body: { name: `scoped ${scopes.join(',')}`, scopes } });
    expect(res.status).toBe(200);
    return res.body.key as string;
  }

  test('without reference_data scope: 403; read-only scope cannot write', async () => {
    const contactsOnly = await keyWith(['contacts']);
    for (const path of [...LISTS, '/name_display_settings']) {
      expectError(await api('GET', path, { key: contactsOnly }), 403, 'FORBIDDEN');
    }
    expectError(await create('/contact_categories', { name: 'x' }, contactsOnly), 403, 'FORBIDDEN');

    const readOnly = await keyWith(['reference_data:read']);
    expect((await api('GET', '/contact_categories', { key: readOnly })).status).toBe(200);
    expectError(await create('/contact_categories', { name: 'x' }, readOnly), 403, 'FORBIDDEN');
    expectError(await api('PUT', '/name_display_settings', { key: readOnly, body: { format: 'LAST_FIRST' } }), 403, 'FORBIDDEN');
  });

  test('no credential: 401', async () => {
    expectError(await api('GET', '/contact_categories'), 401, 'INVALID_CREDENTIAL');
  });
});
