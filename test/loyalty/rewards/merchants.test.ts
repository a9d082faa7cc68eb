// POST and DELETE /accounts/{id}/merchants (the merchants an account allows automatic spend at)
// and GET /merchants (the network's merchants with their schemes, taps and venues), over HTTPS.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { addAccount, contactWithAddresses, createId, expectError, keyWith, markTerminated, openDatabase, UNKNOWN_ID } from '../../accounts/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;
let primary: string;
let secondary: string;
const units: Record<string, string> = {};
let seq = 0;

const unit = (key: string, body: object) => createId(key, '/organisations', { code: `RM-${process.pid}-${Date.now().toString(36)}-${++seq}`, ...body });
const add = (account: string, merchants: object[], key = a.secretKey) => api('POST', `/accounts/${account}/merchants`, { key, body: { merchants } });
const remove = (account: string, merchant: string, key = a.secretKey) => api('DELETE', `/accounts/${account}/merchants/${merchant}`, { key });
const allowed = async (account: string) => {
  const res = await api('GET', `/accounts/${account}/rewards`, { key: a.secretKey });
  expect(res.status).toBe(200);
  return res.body.automatic_spend_settings.allowed_merchants;
};
const rows = (account: string) => db.accountMerchant.count({ where: { accountId: account } });

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Rewards merchants A'), createTenant('Rewards merchants B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  const contact = await contactWithAddresses(a.secretKey, db);
  primary = await addAccount(a.secretKey, contact.id, { name: 'Main' });
  secondary = await addAccount(a.secretKey, contact.id, { name: 'Side' });
  units.cafe = await unit(a.secretKey, { name: 'Cafe', type: 'MERCHANT' });
  units.bakery = await unit(a.secretKey, { name: 'Bakery', type: 'MERCHANT' });
  units.venue = await unit(a.secretKey, { name: 'Cafe terrace', type: 'VENUE', parent_id: units.cafe });
  units.theirs = await unit(b.secretKey, { name: 'Their shop', type: 'MERCHANT' });
});

afterAll(async () => {
  await root?.$disconnect();
});

describe('POST and DELETE /accounts/{id}/merchants', () => {
  test('allowing merchants answers their ids; the rewards read lists them in order with is_next_visit', async () => {
    const res = await add(primary, [{ organisation_id: units.cafe, is_next_visit: true }, { organisation_id: units.bakery.replace(/-/g, '') }]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ merchants: [{ id: units.cafe }, { id: units.bakery }] });
    expect(await allowed(primary)).toEqual([
      { id: units.cafe, name: 'Cafe', is_next_visit: true },
      { id: units.bakery, name: 'Bakery', is_next_visit: false },
    ]);
    expect(await db.auditEntry.count({ where: { entityType: 'account_rewards', entityId: primary, action: 'ALLOW_MERCHANTS' } })).toBe(1);
  });

  test('allowing one already allowed is idempotent: is_next_visit given replaces, absent keeps', async () => {
    expect((await add(primary, [{ organisation_id: units.bakery, is_next_visit: 'true' }])).body).toEqual({ merchants: [{ id: units.bakery }] });
    expect((await add(primary, [{ organisation_id: units.cafe }])).status).toBe(200);
    expect(await allowed(primary)).toEqual([
      { id: units.cafe, name: 'Cafe', is_next_visit: true },
      { id: units.bakery, name: 'Bakery', is_next_visit: true },
    ]);
    expect((await add(primary, [{ organisation_id: units.cafe, is_next_visit: false }])).status).toBe(200);
    expect((await allowed(primary))[0].is_next_visit).toBe(false);
    expect(await rows(primary)).toBe(2);
  });

  test('one bad entry adds none: a venue (400), an unknown or other organisation\'s unit (404), a repeat (400)', async () => {
    const other = await addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
    expectError(await add(other, [{ organisation_id: units.cafe }, { organisation_id: units.venue }]), 400, 'INVALID_REQUEST', 'merchants.1.organisation_id');
    expectError(await add(other, [{ organisation_id: units.theirs }, { organisation_id: units.cafe }]), 400, 'INVALID_REQUEST', 'merchants.0.organisation_id');
    expectError(await add(other, [{ organisation_id: units.cafe }, { organisation_id: UNKNOWN_ID }]), 400, 'INVALID_REQUEST', 'merchants.1.organisation_id');
    expectError(await add(other, [{ organisation_id: units.cafe }, { organisation_id: units.cafe }]), 400, 'INVALID_REQUEST', 'merchants.1.organisation_id');
    expectError(await add(other, []), 400, 'INVALID_REQUEST', 'merchants');
    expectError(await add(other, [{ organisation_id: units.cafe, is_next_visit: 'maybe' }]), 400, 'INVALID_REQUEST', 'merchants.0.is_next_visit');
    expect(await rows(other)).toBe(0);
    expect(await db.auditEntry.count({ where: { entityType: 'account_rewards', entityId: other } })).toBe(0);
  });

  test('removing answers the merchant id; one not allowed is 404 (the path\'s merchant)', async () => {
    expect((await remove(primary, units.bakery)).body).toEqual({ id: units.bakery });
    expect(await allowed(primary)).toEqual([{ id: units.cafe, name: 'Cafe', is_next_visit: false }]);
    expectError(await remove(primary, units.bakery), 404, 'NOT_FOUND');
    expectError(await remove(primary, units.theirs), 404, 'NOT_FOUND');
    expect(await db.auditEntry.count({ where: { entityType: 'account_rewards', entityId: primary, action: 'DISALLOW_MERCHANT' } })).toBe(1);
  });

  test('a non-primary account is 409 NOT_PRIMARY_ACCOUNT; a terminated one 409 ACCOUNT_TERMINATED', async () => {
    expectError(await add(secondary, [{ organisation_id: units.cafe }]), 409, 'NOT_PRIMARY_ACCOUNT');
    expectError(await remove(secondary, units.cafe), 409, 'NOT_PRIMARY_ACCOUNT');
    expect(await rows(secondary)).toBe(0);
    const ended = await addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
    expect((await add(ended, [{ organisation_id: units.cafe }])).status).toBe(200);
    await markTerminated(root, a.organisationId, ended);
    expectError(await add(ended, [{ organisation_id: units.bakery }]), 409, 'ACCOUNT_TERMINATED');
    expectError(await remove(ended, units.cafe), 409, 'ACCOUNT_TERMINATED');
    expect(await rows(ended)).toBe(1);
  });

  test("another organisation's account is 404; credentials and scopes are checked", async () => {
    expectError(await add(primary, [{ organisation_id: units.theirs }], b.secretKey), 404, 'NOT_FOUND');
    expectError(await remove(primary, units.cafe, b.secretKey), 404, 'NOT_FOUND');
    expectError(await add(UNKNOWN_ID, [{ organisation_id: units.cafe }]), 404, 'NOT_FOUND');
    expectError(await api('POST', `/accounts/${primary}/merchants`, { body: { merchants: [{ organisation_id: units.bakery }] } }), 401, 'INVALID_CREDENTIAL');
    const reader = await keyWith(a.secretKey, ['rewards:read', 'reference_data']);
    expectError(await add(primary, [{ organisation_id: units.bakery }], reader), 403, 'FORBIDDEN');
    expectError(await remove(primary, units.cafe, reader), 403, 'FORBIDDEN');
    expect(await rows(primary)).toBe(1);
  });
});

describe('GET /merchants', () => {
  let c: Tenant;
  let cdb: Db;
  const m: Record<string, string> = {};
  let scheme: string;
  let otherScheme: string;
  const list = (query = '', key = c.secretKey) => api('GET', `/merchants${query ? `?${query}` : ''}`, { key });

  beforeAll(async () => {
    c = await createTenant('Rewards merchant list');
    cdb = scopedClient(root, c.organisationId);
    m.alpha = await unit(c.secretKey, { name: 'Alpha Books', type: 'MERCHANT', description: 'Books', taps: [{ name: 'Till A', code: `TA-${process.pid}` }] });
    m.beta = await unit(c.secretKey, { name: 'Beta Bikes', type: 'MERCHANT' });
    m.venue = await unit(c.secretKey, { name: 'Alpha kiosk', type: 'VENUE', parent_id: m.alpha, taps: [{ name: 'Kiosk till', code: `TK-${process.pid}` }] });
    m.sub = await unit(c.secretKey, { name: 'Alpha office', type: 'SUBSIDIARY', parent_id: m.alpha });
    m.loose = await unit(c.secretKey, { name: 'Lone venue', type: 'VENUE' });
    scheme = newId();
    await cdb.rewardScheme.create({ data: { id: scheme, organisationId: c.organisationId, code: 'READERS', name: 'Readers club', signUpOption: 'OPEN' } });
    await cdb.rewardSchemeMerchant.create({ data: { organisationId: c.organisationId, schemeId: scheme, unitId: m.alpha, position: 0 } });
    otherScheme = newId();
    await scopedClient(root, b.organisationId).rewardScheme.create({ data: { id: otherScheme, organisationId: b.organisationId, name: 'Theirs', signUpOption: 'OPEN' } });
  });

  test('lists the merchants only, as {content, paging}, newest first; creatives empty; schemes and venues only on request', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.paging).toEqual({ page: 1, size: 20, total: 2 });
    expect(res.body.content.map((x: { id: string }) => x.id)).toEqual([m.beta, m.alpha]);
    const alpha = res.body.content[1];
    expect(alpha).toEqual({ id: m.alpha, code: expect.any(String), name: 'Alpha Books', description: 'Books', is_parent: false, tap: [{ id: expect.any(String), name: 'Till A', code: `TA-${process.pid}` }], creatives: [] });
    expect(res.body.content[0]).toMatchObject({ name: 'Beta Bikes', description: null, is_parent: true, tap: [], creatives: [] });
    const off = await list('include_schemes=false&include_venues=false');
    expect(off.body.content[1]).not.toHaveProperty('schemes');
    expect(off.body.content[1]).not.toHaveProperty('venues');
  });

  test('include_schemes and include_venues add schemes[] and the VENUE units below', async () => {
    const res = await list('include_schemes=true&include_venues=true&sort=name&order=ASC');
    expect(res.status).toBe(200);
    const [alpha, beta] = res.body.content;
    expect(alpha.schemes).toEqual([{ id: scheme, name: 'Readers club', code: 'READERS' }]);
    expect(alpha.venues).toEqual([{ id: m.venue, name: 'Alpha kiosk', taps: [{ id: expect.any(String), name: 'Kiosk till', code: `TK-${process.pid}` }] }]);
    expect(beta).toMatchObject({ id: m.beta, schemes: [], venues: [] });
  });

  test('reward_scheme_id keeps the merchants of that scheme; an unknown or other organisation\'s scheme is 404', async () => {
    const res = await list(`reward_scheme_id=${scheme}`);
    expect(res.body.content.map((x: { id: string }) => x.id)).toEqual([m.alpha]);
    expect(res.body.paging.total).toBe(1);
    expectError(await list(`reward_scheme_id=${otherScheme}`), 400, 'INVALID_REQUEST', 'reward_scheme_id');
    expectError(await list(`reward_scheme_id=${UNKNOWN_ID}`), 400, 'INVALID_REQUEST', 'reward_scheme_id');
    expectError(await list('reward_scheme_id=nope'), 400, 'INVALID_REQUEST', 'reward_scheme_id');
  });

  test('sorting and paging; bad parameters are 400 naming them', async () => {
    const page2 = await list('sort=name&order=asc&size=1&page=2');
    expect(page2.body).toMatchObject({ content: [{ id: m.beta }], paging: { page: 2, size: 1, total: 2 } });
    expectError(await list('sort=type'), 400, 'INVALID_REQUEST', 'sort');
    expectError(await list('include_venues=yes'), 400, 'INVALID_REQUEST', 'include_venues');
    expectError(await list('merchant=1'), 400, 'INVALID_REQUEST', 'merchant');
  });

  test('another organisation sees its own merchants only; reference_data:read is needed', async () => {
    const theirs = await list('', b.secretKey);
    expect(theirs.body.content.map((x: { id: string }) => x.id)).toEqual([units.theirs]);
    expectError(await api('GET', '/merchants'), 401, 'INVALID_CREDENTIAL');
    expectError(await list('', await keyWith(c.secretKey, ['rewards'])), 403, 'FORBIDDEN');
    expect((await list('', await keyWith(c.secretKey, ['reference_data:read']))).body.paging.total).toBe(2);
  });
});
