// GET /countries over HTTPS (docs/contacts.md "Countries"): the service's own ISO 3166-1 table,
// searched, sorted and paged; the same list every country field is checked against.
import { COUNTRY_CODES } from '../src/domain/contacts/countries';
import { keyWith } from './money/helpers';
import { api } from './support/api';
import { createTenant, type Tenant } from './support/tenants';

let t: Tenant;
beforeAll(async () => {
  t = await createTenant('Countries');
});

const list = (query = '', key = t.secretKey) => api('GET', `/countries${query}`, { key });
const codes = (res: { body: { content: Array<{ code: string }> } }) => res.body.content.map((c) => c.code);

test('every country with both codes and its name, alphabetical by name, paged', async () => {
  const first = await list();
  expect(first.status).toBe(200);
  expect(first.body.paging).toEqual({ page: 1, size: 20, total: COUNTRY_CODES.length });
  expect(first.body.content[0]).toEqual({ code: 'AFG', alpha_2: 'AF', name: 'Afghanistan' });
  // Åland sorts with the As, not after Z.
  expect(codes(first).slice(0, 3)).toEqual(['AFG', 'ALA', 'ALB']);

  const all: Array<{ code: string; alpha_2: string; name: string }> = [];
  for (let page = 1; page <= 3; page++) all.push(...(await list(`?size=100&page=${page}`)).body.content);
  expect(all.map((c) => c.code).sort()).toEqual([...COUNTRY_CODES].sort());
  for (const c of all) expect([c.code, c.alpha_2]).toEqual([c.code, expect.stringMatching(/^[A-Z]{2}$/)]);
  expect(all.find((c) => c.code === 'CYP')).toEqual({ code: 'CYP', alpha_2: 'CY', name: 'Cyprus' });
  expect(new Set(all.map((c) => c.alpha_2)).size).toBe(all.length);
});

test('search_value: text within the name (case and accents ignored) or a whole code of either kind', async () => {
  for (const [query, expected] of [
    ['cyp', ['CYP']],
    ['CY', ['CYP']],
    ['cote', ['CIV']],
    ['TÜRKI', ['TUR']],
    ['turk', ['TUR', 'TKM', 'TCA']],
    ['guinea', ['GNQ', 'GIN', 'GNB', 'PNG']],
    ['gb', ['GBR']],
    ['zz', []],
  ] as Array<[string, string[]]>) {
    const res = await list(`?search_value=${encodeURIComponent(query)}`);
    expect([query, res.status, codes(res), res.body.paging.total]).toEqual([query, 200, expected, expected.length]);
  }
});

test('sort by code, DESC order, bad input', async () => {
  expect(codes(await list('?sort=code&size=2'))).toEqual(['ABW', 'AFG']);
  expect(codes(await list('?sort=code&order=desc&size=2'))).toEqual(['ZWE', 'ZMB']);
  expect(codes(await list('?order=DESC&size=1'))).toEqual(['ZWE']);
  expect((await list('?page=99')).body).toEqual({ content: [], paging: { page: 99, size: 20, total: COUNTRY_CODES.length } });
  for (const [query, attribute] of [['?sort=alpha_2', 'sort'], ['?size=101', 'size'], ['?search_value=', 'search_value'], ['?country=CY', 'country']]) {
    const res = await list(query);
    expect([query, res.status, res.body.attribute]).toEqual([query, 400, attribute]);
  }
});

test('needs reference_data:read; any other credential is refused', async () => {
  expect((await list('', await keyWith(t.secretKey, ['reference_data:read']))).status).toBe(200);
  expect((await list('', await keyWith(t.secretKey, ['contacts']))).status).toBe(403);
  expect((await list('', t.publicKey)).status).toBe(403);
  expect((await api('GET', '/countries')).status).toBe(401);
});
