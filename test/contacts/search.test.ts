// GET /contacts: every filter of spec 4.1, sorting, paging, financials and metrics, tenancy.
import { createTenant, type Tenant } from '../support/tenants';
import { createContact, expectError, getContact, search, unique } from './contact-helpers';

let t: Tenant;
let key: string;
const tag = unique('srch').toLowerCase().replace(/[^a-z0-9]/g, '');
let ann: string;
let bob: string;
let acme: string;
let before: number;
let after: number;

async function ids(query: Record<string, string | number | boolean>): Promise<string[]> {
  const res = await search(key, query);
  expect(res.status).toBe(200);
  return res.body.contacts.map((c: any) => c.id);
}

beforeAll(async () => {
  t = await createTenant('Contacts search');
  key = t.secretKey;
  before = Math.floor(Date.now() / 1000);
  ann = await createContact(key, {
    code: `${tag}-ANN`,
    first_name: 'Ann',
    last_name: `Smith${tag}`,
    email_address: `Ann.${tag}@Example.com`,
    phones: [{ number: '+357 22 123456' }],
    statutory_number: `${tag}-S1`,
    loyalty_identifier: `${tag}-LOY-1`,
    create_default_account: true,
  });
  bob = await createContact(key, { code: `${tag}-BOB`, first_name: 'Bob', last_name: `Jones${tag}`, phones: [{ number: '99887766' }] });
  acme = await createContact(key, { contact_type: 'COMPANY', first_name: undefined, last_name: undefined, code: `${tag}-ACME`, company_name: `Acme ${tag} Ltd` });
  after = Math.floor(Date.now() / 1000);
});

test('search_value: case-insensitive, inside full name, company name, code, phone, loyalty identifier', async () => {
  expect(await ids({ search_value: `ann smith${tag}`.toUpperCase() })).toEqual([ann]);
  expect(await ids({ search_value: `smith${tag} ann` })).toEqual([ann]);
  expect(await ids({ search_value: `acme ${tag}` })).toEqual([acme]);
  expect(await ids({ search_value: `${tag}-bo` })).toEqual([bob]);
  expect(await ids({ search_value: '22123456' })).toEqual([ann]);
  expect(await ids({ search_value: `${tag}-loy` })).toEqual([ann]);
  expect((await ids({ search_value: tag })).sort()).toEqual([ann, bob, acme].sort());
  expect(await ids({ search_value: `${tag}%` })).toEqual([]);
});

test('each exact filter', async () => {
  expect(await ids({ code: `${tag}-ann` })).toEqual([ann]);
  expect(await ids({ first_name: 'BOB', last_name: `jones${tag}` })).toEqual([bob]);
  expect(await ids({ last_name: `Smith${tag}` })).toEqual([ann]);
  expect(await ids({ company_name: `acme ${tag} ltd` })).toEqual([acme]);
  expect(await ids({ email_address: `ann.${tag}@example.COM` })).toEqual([ann]);
  expect(await ids({ phone_number: '22-123-456' })).toEqual([]);
  expect(await ids({ phone_number: '+357 22 123456' })).toEqual([ann]);
  expect(await ids({ phone_number: '99 88 77 66' })).toEqual([bob]);
  expect(await ids({ statutory_number: `${tag}-S1` })).toEqual([ann]);
  expect(await ids({ loyalty_identifier: `${tag}-loy-1` })).toEqual([ann]);
  expect(await ids({ cim: `${tag}-LOY-1` })).toEqual([ann]);
  expect(await ids({ code: `${tag}-none` })).toEqual([]);
});

test('registered_on_from / registered_on_to are inclusive epoch seconds', async () => {
  expect((await ids({ search_value: tag, registered_on_from: before, registered_on_to: after })).sort()).toEqual([ann, bob, acme].sort());
  expect(await ids({ search_value: tag, registered_on_to: before - 1 })).toEqual([]);
  expect(await ids({ search_value: tag, registered_on_from: after + 1 })).toEqual([]);
});

test('date bounds hold at the second: one second past registered_on excludes, the second itself includes', async () => {
  const registered = (await getContact(key, ann)).registered_on as number;
  const code = `${tag}-ANN`;
  expect(await ids({ code, registered_on_from: registered })).toEqual([ann]);
  expect(await ids({ code, registered_on_from: registered + 1 })).toEqual([]);
  expect(await ids({ code, registered_on_to: registered })).toEqual([ann]);
  expect(await ids({ code, registered_on_to: registered - 1 })).toEqual([]);
});

test('an unknown query parameter is refused, not ignored', async () => {
  expectError(await search(key, { registered_from: 0 }), 400, 'INVALID_REQUEST', 'registered_from');
});

test('organisation_id: the own organisation lists, another one is empty', async () => {
  expect((await ids({ search_value: tag, organisation_id: t.organisationId })).sort()).toEqual([ann, bob, acme].sort());
  const other = await createTenant('Contacts search other');
  expect(await ids({ search_value: tag, organisation_id: other.organisationId })).toEqual([]);
  // And the other organisation's key finds none of these contacts by any filter.
  const theirs = await search(other.secretKey, { search_value: tag });
  expect(theirs.body).toEqual({ contacts: [], paging: { page: 1, size: 20, total: 0 } });
  expect((await search(other.secretKey, { code: `${tag}-ANN` })).body.contacts).toEqual([]);
});

test('search item shape; financials and metrics only when asked', async () => {
  const plain = (await search(key, { code: `${tag}-ANN` })).body.contacts[0];
  expect(plain).toMatchObject({
    id: ann,
    code: `${tag}-ANN`,
    contact_type: 'PERSON',
    contact_name: `Ann Smith${tag}`,
    statutory_number: `${tag}-S1`,
    category: null,
    email_address: `Ann.${tag}@Example.com`,
    phones: [expect.objectContaining({ number: '+357 22 123456', is_primary: true })],
    interaction_status: 'RESTING',
    kyc_profile: null,
    kyc_status: null,
    loyalty_identifier: `${tag}-LOY-1`,
  });
  expect(plain.registered_on).toBeGreaterThanOrEqual(before);
  expect(plain).not.toHaveProperty('financials');
  expect(plain).not.toHaveProperty('metrics');
  const full = (await search(key, { code: `${tag}-ANN`, financials: true, metrics: 'subscriptions,schemes' })).body.contacts[0];
  expect(full.financials).toEqual({
    account: { id: expect.any(String), number: expect.stringMatching(/^\d{10}$/), life_cycle_state: 'ACTIVE', currency_code: 'EUR', overdue_amount: 0, balance: 0 },
    wallet: null,
  });
  expect(full.metrics).toEqual({ subscriptions: { timestamp: expect.any(Number), total: 0 }, schemes: { timestamp: expect.any(Number), total: 0 } });
  const bobs = (await search(key, { code: `${tag}-BOB`, financials: 'true' })).body.contacts[0];
  expect(bobs.financials).toEqual({ account: null, wallet: null });
});

test('sorting and paging', async () => {
  const byName = await ids({ search_value: tag, sort: 'contact_name', order: 'ASC' });
  expect(byName).toEqual([acme, ann, bob]);
  expect(await ids({ search_value: tag, sort: 'code', order: 'desc' })).toEqual([bob, ann, acme]);
  expect(await ids({ search_value: tag, sort: 'registered_on', order: 'ASC' })).toEqual([ann, bob, acme]);
  expect(await ids({ search_value: tag })).toEqual([acme, bob, ann]);
  expect((await ids({ search_value: tag, sort: 'last_name', order: 'ASC' })).slice(0, 2)).toEqual([bob, ann]);
  expect((await ids({ search_value: tag, sort: 'company_name', order: 'ASC' }))[0]).toBe(acme);
  const page2 = await search(key, { search_value: tag, sort: 'code', order: 'ASC', size: 2, page: 2 });
  expect(page2.body.paging).toEqual({ page: 2, size: 2, total: 3 });
  expect(page2.body.contacts.map((c: any) => c.id)).toEqual([bob]);
});

test('bad parameters name the parameter', async () => {
  expectError(await search(key, { sort: 'shoe_size' }), 400, 'INVALID_REQUEST', 'sort');
  expectError(await search(key, { metrics: 'subscriptions,visits' }), 400, 'INVALID_REQUEST', 'metrics.1');
  expectError(await search(key, { registered_from: 'yesterday' }), 400, 'INVALID_REQUEST', 'registered_from');
  expectError(await search(key, { organisation_id: 'abc' }), 400, 'INVALID_REQUEST', 'organisation_id');
  expectError(await search(key, { size: 1000 }), 400, 'INVALID_REQUEST', 'size');
  expectError(await search(key, { phone_number: 'abc' }), 400, 'INVALID_REQUEST', 'phone_number');
});

test('a page past the end is empty but still counts the total', async () => {
  const res = await search(key, { search_value: tag, size: 2, page: 5 });
  expect(res.body).toEqual({ contacts: [], paging: { page: 5, size: 2, total: 3 } });
});
