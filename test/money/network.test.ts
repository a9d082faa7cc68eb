// The business network over HTTPS: /organisations (merchants, venues, subsidiaries under the
// tenant) with locations and taps, the tree rules, and tenancy.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { createId, expectError, UNKNOWN_ID } from './helpers';

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Network A'), createTenant('Network B')]);
});

const unit = (code: string, extra: object = {}) => ({ code, name: `Unit ${code}`, type: 'MERCHANT', ...extra });
const add = (body: object, key = a.secretKey) => createId(key, '/organisations', body);
const get = (id: string, key = a.secretKey) => api('GET', `/organisations/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/organisations/${id}`, { key, body });

const cafe = { name: 'Main street', address_line_1: '1 Main Street', town_city: 'Nicosia', postal_code: '1010', country_code: 'cyp', lat: 35.17, lon: 33.36, googlePlaceId: 'ChIJ123' };

test('create, get, list, partial update, delete', async () => {
  const id = await add(unit('N-1', { description: 'Coffee', locations: [cafe, { name: 'Kiosk' }], taps: [{ name: 'Till 1', code: 'N-1-T1' }, { name: 'Till 2', code: 'N-1-T2' }] }));
  const got = await get(id);
  expect(got.status).toBe(200);
  expect(got.body).toMatchObject({ id, code: 'N-1', name: 'Unit N-1', description: 'Coffee', type: 'MERCHANT', parent_id: null });
  expect(got.body.locations).toEqual([
    { ...cafe, country_code: 'CYP', address_line_2: null, state_province_county: null },
    { name: 'Kiosk', address_line_1: null, address_line_2: null, state_province_county: null, town_city: null, postal_code: null, country_code: null, lat: null, lon: null, googlePlaceId: null },
  ]);
  expect(got.body.taps.map((t: { code: string }) => t.code)).toEqual(['N-1-T1', 'N-1-T2']);

  const list = await api('GET', '/organisations?code=N-1', { key: a.secretKey });
  expect(list.body.paging).toEqual({ page: 1, size: 20, total: 1 });
  expect(list.body.content[0]).toEqual(got.body);

  // Taps: keep the first (renamed), drop the second, add a third; locations replaced.
  const [first] = got.body.taps;
  const upd = await put(id, { name: 'Renamed', description: null, locations: [{ name: 'Only' }], taps: [{ id: first.id, name: 'Front till', code: 'N-1-T1' }, { name: 'New', code: 'N-1-T2' }] });
  expect(upd.status).toBe(200);
  expect(upd.body).toEqual({ id });
  const after = (await get(id)).body;
  expect(after).toMatchObject({ name: 'Renamed', description: null, code: 'N-1', type: 'MERCHANT' });
  expect(after.locations.map((l: { name: string }) => l.name)).toEqual(['Only']);
  expect(after.taps[0]).toEqual({ id: first.id, name: 'Front till', code: 'N-1-T1' });
  expect(after.taps[1].id).not.toBe(got.body.taps[1].id);

  expect((await api('DELETE', `/organisations/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
});

test('filters: type, parent_id, search_value, name; sort by code', async () => {
  const parent = await add(unit('F-P', { type: 'SUBSIDIARY' }));
  await add(unit('F-V1', { type: 'VENUE', parent_id: parent }));
  await add(unit('F-V2', { type: 'VENUE', parent_id: parent }));
  const below = await api('GET', `/organisations?parent_id=${parent}&sort=code&order=ASC`, { key: a.secretKey });
  expect(below.body.content.map((u: { code: string }) => u.code)).toEqual(['F-V1', 'F-V2']);
  const venues = await api('GET', '/organisations?type=VENUE&search_value=f-v', { key: a.secretKey });
  expect(venues.body.paging.total).toBe(2);
  expect((await api('GET', '/organisations?name=unit f-p', { key: a.secretKey })).body.content.map((u: { id: string }) => u.id)).toEqual([parent]);
  expectError(await api('GET', '/organisations?type=SHOP', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'type');
  expectError(await api('GET', '/organisations?sort=parent_id', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'sort');
});

test('the tree: parent of the same organisation, no cycles; a unit with units below it cannot go', async () => {
  const top = await add(unit('T-TOP', { type: 'SUBSIDIARY' }));
  const mid = await add(unit('T-MID', { parent_id: top }));
  const leaf = await add(unit('T-LEAF', { type: 'VENUE', parent_id: mid }));
  const foreign = await add(unit('T-B'), b.secretKey);

  expectError(await api('POST', '/organisations', { key: a.secretKey, body: unit('T-X', { parent_id: UNKNOWN_ID }) }), 400, 'INVALID_REQUEST', 'parent_id');
  expectError(await api('POST', '/organisations', { key: a.secretKey, body: unit('T-X', { parent_id: foreign }) }), 400, 'INVALID_REQUEST', 'parent_id');
  expectError(await put(top, { parent_id: top }), 400, 'INVALID_REQUEST', 'parent_id');
  expectError(await put(top, { parent_id: leaf }), 400, 'INVALID_REQUEST', 'parent_id');
  expectError(await put(mid, { parent_id: foreign }), 400, 'INVALID_REQUEST', 'parent_id');
  expect((await get(top)).body.parent_id).toBeNull();

  // Moving a leaf elsewhere, and back to the top level, is fine.
  expect((await put(leaf, { parent_id: top })).status).toBe(200);
  expect((await put(leaf, { parent_id: null })).status).toBe(200);
  expect((await get(leaf)).body.parent_id).toBeNull();

  expectError(await api('DELETE', `/organisations/${top}`, { key: a.secretKey }), 409, 'IN_USE');
  expect((await api('DELETE', `/organisations/${mid}`, { key: a.secretKey })).status).toBe(200);
  expect((await api('DELETE', `/organisations/${top}`, { key: a.secretKey })).status).toBe(200);
});

test('codes: unit and tap codes unique in the organisation; a refused create writes nothing', async () => {
  const id = await add(unit('C-1', { taps: [{ name: 'Till', code: 'C-1-T' }] }));
  expectError(await api('POST', '/organisations', { key: a.secretKey, body: unit('C-1') }), 409, 'ALREADY_EXISTS', 'code');
  // The tap code clashes after the unit row was inserted: the whole create is undone.
  expectError(await api('POST', '/organisations', { key: a.secretKey, body: unit('C-2', { taps: [{ name: 'Till', code: 'C-1-T' }] }) }), 409, 'ALREADY_EXISTS', 'code');
  expect((await api('GET', '/organisations?code=C-2', { key: a.secretKey })).body.paging.total).toBe(0);
  const twice = [{ name: 'A', code: 'C-DUP' }, { name: 'B', code: 'C-DUP' }];
  expectError(await api('POST', '/organisations', { key: a.secretKey, body: unit('C-3', { taps: twice }) }), 400, 'INVALID_REQUEST', 'taps.1.code');
  // Other organisations may use the same codes.
  await add(unit('C-1', { taps: [{ name: 'Till', code: 'C-1-T' }] }), b.secretKey);

  const other = await add(unit('C-4', { taps: [{ name: 'Till', code: 'C-4-T' }] }));
  const otherTap = (await get(other)).body.taps[0].id as string;
  // A tap of another unit cannot be adopted by id; a refused update leaves the unit as it was.
  expectError(await put(id, { name: 'Changed', taps: [{ id: otherTap, name: 'Stolen', code: 'C-X' }] }), 400, 'INVALID_REQUEST', 'taps.0.id');
  expect((await get(id)).body).toMatchObject({ name: 'Unit C-1', taps: [{ code: 'C-1-T' }] });
  expectError(await put(id, { code: 'C-4' }), 409, 'ALREADY_EXISTS', 'code');
});

test('validation names the field', async () => {
  const post = (body: object) => api('POST', '/organisations', { key: a.secretKey, body });
  expectError(await post({ name: 'x', type: 'MERCHANT' }), 400, 'INVALID_REQUEST', 'code');
  expectError(await post(unit('V-1', { type: 'SHOP' })), 400, 'INVALID_REQUEST', 'type');
  expectError(await post(unit('V-1', { locations: [{ name: 'x', country_code: 'XXX' }] })), 400, 'INVALID_REQUEST', 'locations.0.country_code');
  expectError(await post(unit('V-1', { locations: [{ name: 'x', lat: 91 }] })), 400, 'INVALID_REQUEST', 'locations.0.lat');
  expectError(await post(unit('V-1', { locations: [{ town_city: 'x' }] })), 400, 'INVALID_REQUEST', 'locations.0.name');
  expectError(await post(unit('V-1', { taps: [{ name: 'x' }] })), 400, 'INVALID_REQUEST', 'taps.0.code');
  expectError(await post(unit('V-1', { taps: [{ id: UNKNOWN_ID, name: 'x', code: 'y' }] })), 400, 'INVALID_REQUEST', 'taps.0.id');
  expectError(await post(unit('a/b')), 400, 'INVALID_REQUEST', 'code');
  expectError(await api('GET', '/organisations/nope', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'id');
});

test("another organisation's unit answers 404 like an unknown one", async () => {
  const id = await add(unit('P-1'));
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/organisations/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await api('GET', '/organisations?code=P-1', { key: b.secretKey })).body.paging.total).toBe(0);
  expect((await get(id)).body.name).toBe('Unit P-1');
});
