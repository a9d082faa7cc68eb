// POST and DELETE /accounts/{id}/reward_schemes over HTTPS: what each sign_up_option asks for,
// already joined, sign-out keeps the participation with its end, a later sign-up re-opens it,
// and the refusals (primary only, terminated, other organisations, scopes) leave nothing behind.
import type { Db } from '../../../src/db/client';
import { scopedClient } from '../../../src/db/tenancy';
import { newId } from '../../../src/domain/ids';
import { addAccount, contactWithAddresses, expectError, keyWith, markTerminated, openDatabase, UNKNOWN_ID } from '../../accounts/helpers';
import { api } from '../../support/api';
import { createTenant, type Tenant } from '../../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
let db: Db;
let primary: string;
let secondary: string;
const s: Record<string, string> = {};
let theirScheme: string;

const join = (account: string, body: object, key = a.secretKey) => api('POST', `/accounts/${account}/reward_schemes`, { key, body });
const leave = (account: string, scheme: string, key = a.secretKey) => api('DELETE', `/accounts/${account}/reward_schemes/${scheme}`, { key });
const joined = async (account: string) => {
  const res = await api('GET', `/accounts/${account}/rewards`, { key: a.secretKey });
  expect(res.status).toBe(200);
  return res.body.joined_reward_schemes as Array<Record<string, unknown>>;
};
const participation = (account: string, scheme: string) => db.accountRewardScheme.findFirst({ where: { accountId: account, schemeId: scheme } });
const now = () => Math.floor(Date.now() / 1000);

async function scheme(client: Db, organisationId: string, name: string, signUpOption: string, extra: { signUpCodes?: string[]; allowedDomains?: string[] } = {}): Promise<string> {
  const id = newId();
  await client.rewardScheme.create({ data: { id, organisationId, name, signUpOption, ...extra } });
  return id;
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Rewards schemes A'), createTenant('Rewards schemes B')]);
  root = openDatabase();
  db = scopedClient(root, a.organisationId);
  const contact = await contactWithAddresses(a.secretKey, db);
  primary = await addAccount(a.secretKey, contact.id, { name: 'Main' });
  secondary = await addAccount(a.secretKey, contact.id, { name: 'Side' });
  s.open = await scheme(db, a.organisationId, 'Everyone', 'OPEN');
  s.closed = await scheme(db, a.organisationId, 'Staff club', 'CLOSE_LOOP_SIGN_UP', { signUpCodes: ['STAFF-2025', 'Friends'] });
  s.domain = await scheme(db, a.organisationId, 'Campus', 'EMAIL_DOMAIN', { allowedDomains: ['uni.example.edu', 'example.org'] });
  theirScheme = await scheme(scopedClient(root, b.organisationId), b.organisationId, 'Theirs', 'OPEN');
});

afterAll(async () => {
  await root?.$disconnect();
});

test('an OPEN scheme takes anyone: answers the scheme id, signed up now by default; listed by the rewards read', async () => {
  const before = now();
  const res = await join(primary, { reward_scheme_id: s.open.replace(/-/g, '') });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: s.open });
  const [item] = await joined(primary);
  expect(item).toEqual({ id: s.open, name: 'Everyone', signed_up_on: expect.any(Number), email_address: null, sign_up_option: 'OPEN' });
  expect(item.signed_up_on).toBeGreaterThanOrEqual(before);
  expect(item.signed_up_on).toBeLessThanOrEqual(now());
  expect(await db.auditEntry.count({ where: { entityType: 'account_rewards', entityId: primary, action: 'JOIN_SCHEME' } })).toBe(1);
});

test('joining again while joined is 409 ALREADY_EXISTS naming reward_scheme_id', async () => {
  expectError(await join(primary, { reward_scheme_id: s.open }), 409, 'ALREADY_EXISTS', 'reward_scheme_id');
});

test('CLOSE_LOOP_SIGN_UP needs one of its sign-up codes (400 naming sign_up_code)', async () => {
  expectError(await join(primary, { reward_scheme_id: s.closed }), 400, 'INVALID_REQUEST', 'sign_up_code');
  expectError(await join(primary, { reward_scheme_id: s.closed, sign_up_code: 'staff-2025' }), 400, 'INVALID_REQUEST', 'sign_up_code');
  expectError(await join(primary, { reward_scheme_id: s.closed, sign_up_code: 'WRONG', email_address: 'a@uni.example.edu' }), 400, 'INVALID_REQUEST', 'sign_up_code');
  expect(await participation(primary, s.closed)).toBeNull();
  expect((await join(primary, { reward_scheme_id: s.closed, sign_up_code: 'Friends', signed_up_on: 1735689600 })).body).toEqual({ id: s.closed });
  expect((await joined(primary)).find((x) => x.id === s.closed)).toEqual({ id: s.closed, name: 'Staff club', signed_up_on: 1735689600, email_address: null, sign_up_option: 'CLOSE_LOOP_SIGN_UP' });
});

test('EMAIL_DOMAIN needs an e-mail address at one of its domains, case-insensitive (400 naming email_address)', async () => {
  expectError(await join(primary, { reward_scheme_id: s.domain }), 400, 'INVALID_REQUEST', 'email_address');
  expectError(await join(primary, { reward_scheme_id: s.domain, email_address: 'ann@gmail.example.com' }), 400, 'INVALID_REQUEST', 'email_address');
  expectError(await join(primary, { reward_scheme_id: s.domain, email_address: 'ann@sub.uni.example.edu' }), 400, 'INVALID_REQUEST', 'email_address');
  expectError(await join(primary, { reward_scheme_id: s.domain, email_address: 'not an address' }), 400, 'INVALID_REQUEST', 'email_address');
  expect(await participation(primary, s.domain)).toBeNull();
  expect((await join(primary, { reward_scheme_id: s.domain, email_address: 'Ann@Uni.Example.EDU' })).status).toBe(200);
  expect((await joined(primary)).find((x) => x.id === s.domain)).toMatchObject({ email_address: 'Ann@Uni.Example.EDU', sign_up_option: 'EMAIL_DOMAIN' });
});

test('signing out ends the participation (kept with its end); again is 404; a new sign-up re-opens it with the new date', async () => {
  expect((await leave(primary, s.closed)).body).toEqual({ id: s.closed });
  expect((await joined(primary)).map((x) => x.id)).not.toContain(s.closed);
  const ended = await participation(primary, s.closed);
  expect(ended?.endedOn).toBeInstanceOf(Date);
  expectError(await leave(primary, s.closed), 404, 'NOT_FOUND');
  expect(await db.auditEntry.count({ where: { entityType: 'account_rewards', entityId: primary, action: 'LEAVE_SCHEME' } })).toBe(1);

  // The scheme's rule still applies to the re-opening.
  expectError(await join(primary, { reward_scheme_id: s.closed }), 400, 'INVALID_REQUEST', 'sign_up_code');
  expect((await join(primary, { reward_scheme_id: s.closed, sign_up_code: 'STAFF-2025', signed_up_on: 1767225600 })).status).toBe(200);
  expect(await participation(primary, s.closed)).toMatchObject({ endedOn: null, signedUpOn: new Date(1767225600 * 1000) });
  expect(await db.accountRewardScheme.count({ where: { accountId: primary, schemeId: s.closed } })).toBe(1);
});

test("joining an unknown or another organisation's scheme is 400 naming reward_scheme_id; leaving one never joined is 404", async () => {
  expectError(await join(primary, { reward_scheme_id: theirScheme }), 400, 'INVALID_REQUEST', 'reward_scheme_id');
  expectError(await join(primary, { reward_scheme_id: UNKNOWN_ID }), 400, 'INVALID_REQUEST', 'reward_scheme_id');
  expectError(await leave(primary, theirScheme), 404, 'NOT_FOUND');
  const fresh = await addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
  expectError(await leave(fresh, s.open), 404, 'NOT_FOUND');
  expectError(await join(primary, { reward_scheme_id: s.open, signed_up_on: -5 }), 400, 'INVALID_REQUEST', 'signed_up_on');
  expectError(await join(primary, { reward_scheme_id: s.open, extra: 1 }), 400, 'INVALID_REQUEST', 'extra');
});

test('a non-primary account is 409 NOT_PRIMARY_ACCOUNT; a terminated one 409 ACCOUNT_TERMINATED; nothing is written', async () => {
  expectError(await join(secondary, { reward_scheme_id: s.open }), 409, 'NOT_PRIMARY_ACCOUNT');
  expectError(await leave(secondary, s.open), 409, 'NOT_PRIMARY_ACCOUNT');
  expect(await participation(secondary, s.open)).toBeNull();
  const ended = await addAccount(a.secretKey, (await contactWithAddresses(a.secretKey, db)).id);
  expect((await join(ended, { reward_scheme_id: s.open })).status).toBe(200);
  await markTerminated(root, a.organisationId, ended);
  expectError(await join(ended, { reward_scheme_id: s.domain, email_address: 'x@example.org' }), 409, 'ACCOUNT_TERMINATED');
  expectError(await leave(ended, s.open), 409, 'ACCOUNT_TERMINATED');
  expect(await participation(ended, s.open)).toMatchObject({ endedOn: null });
  expect(await participation(ended, s.domain)).toBeNull();
});

test("another organisation's account is 404; credentials and scopes are checked", async () => {
  expectError(await join(primary, { reward_scheme_id: theirScheme }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await leave(primary, s.open, b.secretKey), 404, 'NOT_FOUND');
  expectError(await join(UNKNOWN_ID, { reward_scheme_id: s.open }), 404, 'NOT_FOUND');
  expectError(await api('DELETE', `/accounts/${primary}/reward_schemes/${s.open}`), 401, 'INVALID_CREDENTIAL');
  const reader = await keyWith(a.secretKey, ['rewards:read']);
  expectError(await leave(primary, s.open, reader), 403, 'FORBIDDEN');
  expectError(await join(primary, { reward_scheme_id: s.open }, await keyWith(a.secretKey, ['accounts'])), 403, 'FORBIDDEN');
  expect(await participation(primary, s.open)).toMatchObject({ endedOn: null });
});
