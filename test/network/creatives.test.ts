// Merchant creatives over HTTPS (/creatives, docs/rewards.md "Creatives"): every operation, each
// rule's 400 with its attribute, tenancy, scopes, nothing half-written, the merchant kept while it
// has creatives, and GET /merchants answering them.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createId, expectError, keyWith, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;
const u: Record<string, string> = {};

const logo = (merchant_id: string, extra: object = {}) => ({
  merchant_id, type: 'LOGO', width: 512, height: 512, format: 'PNG', url: 'https://cdn.example.com/logo-512.png', ...extra,
});
const post = (body: object, key = a.secretKey) => api('POST', '/creatives', { key, body });
const get = (id: string, key = a.secretKey) => api('GET', `/creatives/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/creatives/${id}`, { key, body });
const del = (id: string, key = a.secretKey) => api('DELETE', `/creatives/${id}`, { key });
const list = async (query = '', key = a.secretKey) => {
  const res = await api('GET', `/creatives${query ? `?${query}` : ''}`, { key });
  expect(res.status).toBe(200);
  return res.body;
};
const ids = async (query: string) => (await list(query)).content.map((c: { id: string }) => c.id);
const count = () => db.merchantCreative.count();
const audits = (entityId: string) => db.auditEntry.findMany({ where: { entityType: 'merchant_creative', entityId }, orderBy: { createdAt: 'asc' } });

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Creatives A'), createTenant('Creatives B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  const unit = (key: string, code: string, type: string, extra: object = {}) => createId(key, '/organisations', { code, name: `Unit ${code}`, type, ...extra });
  u.cafe = await unit(a.secretKey, 'CR-CAFE', 'MERCHANT');
  u.bakery = await unit(a.secretKey, 'CR-BAKERY', 'MERCHANT');
  u.venue = await unit(a.secretKey, 'CR-VENUE', 'VENUE', { parent_id: u.cafe });
  u.sub = await unit(a.secretKey, 'CR-SUB', 'SUBSIDIARY');
  u.theirs = await unit(b.secretKey, 'CR-THEIRS', 'MERCHANT');
});

afterAll(async () => {
  await root?.$disconnect();
});

describe('the operations', () => {
  test('create, get, partial update, delete; each write audited', async () => {
    const srcset = [{ width: 128, height: 128, url: 'https://cdn.example.com/logo-128.png' }, { width: 256, height: 256, url: 'https://cdn.example.com:8443/logo-256.png?v=2#x' }];
    const created = await post(logo(u.cafe.replace(/-/g, '').toUpperCase(), { public_id: ' cafe/logo ', srcset }));
    expect(created.status).toBe(200);
    const id = created.body.id as string;
    const got = await get(id);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      id, merchant_id: u.cafe, type: 'LOGO', width: 512, height: 512, format: 'PNG', url: 'https://cdn.example.com/logo-512.png',
      public_id: 'cafe/logo', srcset, created_on: expect.any(Number), updated_on: expect.any(Number),
    });

    // Partial: only what is given changes; srcset given replaces; null clears public_id; merchant_id moves it.
    expect((await put(id, { type: 'BANNER', width: 1200, height: 400, srcset: [srcset[1]] })).body).toEqual({ id });
    expect((await get(id)).body).toMatchObject({ type: 'BANNER', width: 1200, height: 400, format: 'PNG', public_id: 'cafe/logo', srcset: [srcset[1]], merchant_id: u.cafe });
    expect((await put(id, { public_id: null, merchant_id: u.bakery, format: 'WEBP', url: 'https://cdn.example.com/b.webp' })).status).toBe(200);
    expect((await get(id)).body).toMatchObject({ public_id: null, merchant_id: u.bakery, format: 'WEBP', url: 'https://cdn.example.com/b.webp', srcset: [srcset[1]] });
    expect((await put(id, {})).status).toBe(200);
    expect((await get(id)).body).toMatchObject({ type: 'BANNER', merchant_id: u.bakery });

    expect((await del(id)).body).toEqual({ id });
    expectError(await get(id), 404, 'NOT_FOUND');
    expectError(await del(id), 404, 'NOT_FOUND');
    expectError(await put(id, { width: 10 }), 404, 'NOT_FOUND');
    expect((await audits(id)).map((e) => e.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE', 'DELETE']);
  });

  test('srcset defaults to []; public_id to null', async () => {
    const id = await createId(a.secretKey, '/creatives', logo(u.cafe, { type: 'IMAGE', format: 'SVG' }));
    expect((await get(id)).body).toMatchObject({ type: 'IMAGE', format: 'SVG', public_id: null, srcset: [] });
    expect((await del(id)).status).toBe(200);
  });

  test('list: merchant_id and type filters, sort, paging, {content, paging}', async () => {
    const c1 = await createId(a.secretKey, '/creatives', logo(u.cafe, { width: 300 }));
    const c2 = await createId(a.secretKey, '/creatives', logo(u.cafe, { type: 'BANNER', width: 100 }));
    const b1 = await createId(a.secretKey, '/creatives', logo(u.bakery, { width: 200 }));
    const all = await list();
    expect(all.paging).toEqual({ page: 1, size: 20, total: 3 });
    expect(all.content.map((c: { id: string }) => c.id)).toEqual([b1, c2, c1]);
    expect(all.content[2]).toEqual((await get(c1)).body);
    expect(await ids(`merchant_id=${u.cafe}`)).toEqual([c2, c1]);
    expect(await ids(`merchant_id=${u.cafe}&type=LOGO`)).toEqual([c1]);
    expect(await ids('type=BANNER')).toEqual([c2]);
    expect(await ids('sort=width&order=asc')).toEqual([c2, b1, c1]);
    expect(await ids('sort=created_on&order=ASC')).toEqual([c1, c2, b1]);
    expect(await list('sort=width&order=DESC&size=1&page=2')).toMatchObject({ content: [{ id: b1 }], paging: { page: 2, size: 1, total: 3 } });
    // A unit with none, or another organisation's merchant: an empty page, as any filter.
    expect(await list(`merchant_id=${u.theirs}`)).toMatchObject({ content: [], paging: { total: 0 } });
    expect(await ids(`merchant_id=${u.venue}`)).toEqual([]);
    const bad = (query: string, attribute: string) => api('GET', `/creatives?${query}`, { key: a.secretKey }).then((res) => expectError(res, 400, 'INVALID_REQUEST', attribute));
    await bad('type=ICON', 'type');
    await bad('merchant_id=nope', 'merchant_id');
    await bad('sort=url', 'sort');
    await bad('size=101', 'size');
    await bad('name=x', 'name');
    for (const id of [c1, c2, b1]) expect((await del(id)).status).toBe(200);
  });
});

describe('rules', () => {
  test('merchant_id: unknown, another organisation\'s, a VENUE or SUBSIDIARY is 400 naming it, on create and update; nothing written', async () => {
    const before = await count();
    for (const merchant of [UNKNOWN_ID, u.theirs, u.venue, u.sub]) expectError(await post(logo(merchant)), 400, 'INVALID_REQUEST', 'merchant_id');
    expect((await post(logo(u.venue))).body.message).toBe('merchant_id: the organisation unit is a VENUE, not a MERCHANT');
    expect(await count()).toBe(before);

    const id = await createId(a.secretKey, '/creatives', logo(u.cafe));
    for (const merchant of [UNKNOWN_ID, u.theirs, u.sub]) expectError(await put(id, { merchant_id: merchant, width: 7 }), 400, 'INVALID_REQUEST', 'merchant_id');
    expect((await get(id)).body).toMatchObject({ merchant_id: u.cafe, width: 512 });
    expect((await audits(id)).map((e) => e.action)).toEqual(['CREATE']);
    expect((await del(id)).status).toBe(200);
  });

  test('each field\'s rule is 400 naming it; nothing written', async () => {
    const before = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ merchant_id: undefined }, 'merchant_id'],
      [{ merchant_id: 'not-a-guid' }, 'merchant_id'],
      [{ type: 'ICON' }, 'type'],
      [{ type: 'logo' }, 'type'],
      [{ width: 0 }, 'width'],
      [{ width: 12.5 }, 'width'],
      [{ width: '512' }, 'width'],
      [{ height: 20_001 }, 'height'],
      [{ height: -1 }, 'height'],
      [{ format: 'BMP' }, 'format'],
      [{ url: 'http://cdn.example.com/logo.png' }, 'url'],
      [{ url: 'javascript:alert(1)' }, 'url'],
      [{ url: 'https://cdn.example.com/a logo.png' }, 'url'],
      [{ url: 'https://' }, 'url'],
      [{ url: `https://cdn.example.com/${'x'.repeat(2000)}` }, 'url'],
      [{ public_id: '' }, 'public_id'],
      [{ public_id: 'x'.repeat(201) }, 'public_id'],
      [{ srcset: [{ width: 1, height: 1 }] }, 'srcset.0.url'],
      [{ srcset: [{ width: 1, height: 1, url: 'https://a.example/1.png' }, { width: 0, height: 1, url: 'https://a.example/1.png' }] }, 'srcset.1.width'],
      [{ srcset: [{ width: 1, height: 1, url: 'ftp://a.example/1.png' }] }, 'srcset.0.url'],
      [{ srcset: [{ width: 1, height: 1, url: 'https://a.example/1.png', size: 3 }] }, 'srcset.0.size'],
      [{ srcset: Array.from({ length: 21 }, (_, i) => ({ width: i + 1, height: 1, url: 'https://a.example/1.png' })) }, 'srcset'],
      [{ srcset: {} }, 'srcset'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [patch, attribute] of cases) {
      const body = { ...logo(u.cafe), ...patch };
      const res = await post(body);
      if (res.status !== 400 || res.body.attribute !== attribute) throw new Error(`${JSON.stringify(patch).slice(0, 80)}: ${res.status} ${res.text.slice(0, 200)}`);
    }
    expectError(await api('POST', '/creatives', { key: a.secretKey }), 400, 'INVALID_REQUEST', 'body');
    expect(await count()).toBe(before);

    const id = await createId(a.secretKey, '/creatives', logo(u.cafe));
    for (const [patch, attribute] of cases) {
      // Required on create only: an update without merchant_id keeps it.
      if ('merchant_id' in patch && patch.merchant_id === undefined) continue;
      expectError(await put(id, { width: 99, ...patch }), 400, 'INVALID_REQUEST', attribute);
    }
    expectError(await put(id, { type: null }), 400, 'INVALID_REQUEST', 'type');
    expect((await get(id)).body).toMatchObject({ type: 'LOGO', width: 512 });
    expect((await audits(id)).map((e) => e.action)).toEqual(['CREATE']);
    expect((await del(id)).status).toBe(200);
  });

  test('a merchant with creatives cannot be deleted (409 IN_USE) and keeps them; without them it can', async () => {
    const shop = await createId(a.secretKey, '/organisations', { code: 'CR-SHOP', name: 'Shop', type: 'MERCHANT' });
    const id = await createId(a.secretKey, '/creatives', logo(shop));
    expectError(await api('DELETE', `/organisations/${shop}`, { key: a.secretKey }), 409, 'IN_USE');
    expect((await get(id)).body.merchant_id).toBe(shop);
    expect((await del(id)).status).toBe(200);
    expect((await api('DELETE', `/organisations/${shop}`, { key: a.secretKey })).status).toBe(200);
  });
});

describe('tenancy and access', () => {
  test("another organisation's creative is 404 to every operation and stays unchanged", async () => {
    const id = await createId(a.secretKey, '/creatives', logo(u.cafe));
    expectError(await get(id, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(id, { width: 1 }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await del(id, b.secretKey), 404, 'NOT_FOUND');
    expect((await list('', b.secretKey)).content).toEqual([]);
    expect((await get(id)).body.width).toBe(512);
    // B's own creative cannot be moved to A's merchant either.
    const theirs = await createId(b.secretKey, '/creatives', logo(u.theirs));
    expectError(await put(theirs, { merchant_id: u.cafe }, b.secretKey), 400, 'INVALID_REQUEST', 'merchant_id');
    expect((await del(id)).status).toBe(200);
  });

  test('401 without a credential; reference_data:read reads, reference_data:write writes', async () => {
    const id = await createId(a.secretKey, '/creatives', logo(u.cafe));
    expectError(await api('GET', '/creatives'), 401, 'INVALID_CREDENTIAL');
    expectError(await api('POST', '/creatives', { body: logo(u.cafe) }), 401, 'INVALID_CREDENTIAL');
    expectError(await api('GET', `/creatives/${id}`, { key: 'sk_not_a_key' }), 401, 'INVALID_CREDENTIAL');
    const reader = await keyWith(a.secretKey, ['reference_data:read']);
    const writer = await keyWith(a.secretKey, ['reference_data:write']);
    const other = await keyWith(a.secretKey, ['rewards']);
    expect((await get(id, reader)).status).toBe(200);
    expect((await list('', reader)).paging.total).toBe(1);
    const before = await count();
    expectError(await post(logo(u.cafe), reader), 403, 'FORBIDDEN');
    expectError(await put(id, { width: 1 }, reader), 403, 'FORBIDDEN');
    expectError(await del(id, reader), 403, 'FORBIDDEN');
    expectError(await get(id, writer), 403, 'FORBIDDEN');
    expectError(await get(id, other), 403, 'FORBIDDEN');
    expectError(await post(logo(u.cafe), other), 403, 'FORBIDDEN');
    expect(await count()).toBe(before);
    expect((await put(id, { width: 640 }, writer)).status).toBe(200);
    expect((await get(id)).body.width).toBe(640);
    expect((await del(id, writer)).status).toBe(200);
  });
});

describe('GET /merchants', () => {
  test("each merchant answers its creatives in the order they were created, in spec 2.13's shape", async () => {
    const first = await createId(a.secretKey, '/creatives', logo(u.bakery, { public_id: 'bakery/logo' }));
    const second = await createId(a.secretKey, '/creatives', logo(u.bakery, { type: 'BANNER', width: 1200, height: 300, format: 'JPEG', srcset: [{ width: 600, height: 150, url: 'https://cdn.example.com/b-600.jpg' }] }));
    const res = await api('GET', '/merchants?sort=code&order=ASC', { key: a.secretKey });
    expect(res.status).toBe(200);
    const [bakery, cafe] = res.body.content;
    expect(cafe).toMatchObject({ id: u.cafe, creatives: [] });
    expect(bakery.id).toBe(u.bakery);
    expect(bakery.creatives).toEqual([
      { id: first, type: 'LOGO', width: 512, height: 512, format: 'PNG', url: 'https://cdn.example.com/logo-512.png', public_id: 'bakery/logo', srcset: [] },
      { id: second, type: 'BANNER', width: 1200, height: 300, format: 'JPEG', url: 'https://cdn.example.com/logo-512.png', public_id: null, srcset: [{ width: 600, height: 150, url: 'https://cdn.example.com/b-600.jpg' }] },
    ]);
    // A later update does not reorder them; a deleted one is gone; another organisation sees none of them.
    expect((await put(first, { width: 256 })).status).toBe(200);
    let again = (await api('GET', `/merchants?sort=code&order=ASC`, { key: a.secretKey })).body.content[0];
    expect(again.creatives.map((c: { id: string; width: number }) => [c.id, c.width])).toEqual([[first, 256], [second, 1200]]);
    expect((await del(first)).status).toBe(200);
    again = (await api('GET', '/merchants?sort=code&order=ASC', { key: a.secretKey })).body.content[0];
    expect(again.creatives.map((c: { id: string }) => c.id)).toEqual([second]);
    const theirs = await api('GET', '/merchants', { key: b.secretKey });
    expect(JSON.stringify(theirs.body)).not.toContain(second);
    expect((await del(second)).status).toBe(200);
  });
});
