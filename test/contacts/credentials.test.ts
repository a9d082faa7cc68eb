// A contact's self-service credentials over HTTPS: set, replace, unique username per
// organisation, password rules, and the password never coming back in any response.
import { api, type ApiResponse } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
const seen: string[] = [];

/** Every response of this file is kept, to show that no password ever comes back. */
async function call(method: string, path: string, key: string, body?: object): Promise<ApiResponse> {
  const res = await api(method, path, { key, body });
  seen.push(res.text);
  return res;
}

async function createContact(key: string, extra: object = {}): Promise<string> {
  const res = await call('POST', '/contacts', key, { contact_type: 'PERSON', first_name: 'Grace', last_name: 'Hopper', ...extra });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

function setCredentials(contact: string, body: object, key = a.secretKey) {
  return call('POST', `/contacts/${contact}/credentials`, key, body);
}

function expectError(res: ApiResponse, status: number, code: string, attribute?: string) {
  expect({ status: res.status, code: res.body?.code, attribute: res.body?.attribute }).toEqual({ status, code, attribute });
}

const PASSWORDS = ['correct horse battery', 'Tr0ub4dor&3-replaced', 'another secret 42'];

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Credentials A'), createTenant('Credentials B')]);
});

afterAll(() => {
  for (const text of seen) for (const password of PASSWORDS) expect(text).not.toContain(password);
});

test('set, then replace: same credentials id, new username', async () => {
  const contact = await createContact(a.secretKey, { code: 'CRED-1' });
  const first = await setCredentials(contact, { username: 'grace', password: PASSWORDS[0] });
  expect(first.status).toBe(200);
  expect(first.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });

  const again = await setCredentials('CRED-1', { username: 'grace.hopper', password: PASSWORDS[1] });
  expect(again.status).toBe(200);
  expect(again.body.id).toBe(first.body.id);

  // The old username is free again for another contact.
  const other = await createContact(a.secretKey);
  expect((await setCredentials(other, { username: 'grace', password: PASSWORDS[2] })).status).toBe(200);
  await call('GET', `/contacts/${contact}`, a.secretKey);
});

test('a username is unique in the organisation, case-insensitively; not across organisations', async () => {
  const one = await createContact(a.secretKey);
  const two = await createContact(a.secretKey);
  expect((await setCredentials(one, { username: 'Unique.User', password: PASSWORDS[0] })).status).toBe(200);
  expectError(await setCredentials(two, { username: 'unique.user', password: PASSWORDS[0] }), 409, 'ALREADY_EXISTS', 'username');
  expectError(await setCredentials(two, { username: 'UNIQUE.USER', password: PASSWORDS[0] }), 409, 'ALREADY_EXISTS', 'username');
  // Re-posting one's own username is a password change, not a conflict.
  expect((await setCredentials(one, { username: 'unique.user', password: PASSWORDS[1] })).status).toBe(200);

  const elsewhere = await createContact(b.secretKey);
  expect((await setCredentials(elsewhere, { username: 'unique.user', password: PASSWORDS[0] }, b.secretKey)).status).toBe(200);
});

describe('validation', () => {
  let contact: string;
  beforeAll(async () => {
    contact = await createContact(a.secretKey);
  });

  test.each([
    ['password too short', { username: 'shorty', password: 'seven77' }, 'password'],
    ['password too long', { username: 'longy', password: 'x'.repeat(257) }, 'password'],
    ['missing password', { username: 'nopass' }, 'password'],
    ['missing username', { password: PASSWORDS[0] }, 'username'],
    ['blank username', { username: '   ', password: PASSWORDS[0] }, 'username'],
    ['username with a space', { username: 'two words', password: PASSWORDS[0] }, 'username'],
    ['unknown field', { username: 'x1', password: PASSWORDS[0], email: 'x@example.com' }, 'email'],
  ])('%s', async (_name, body, attribute) => {
    expectError(await setCredentials(contact, body), 400, 'INVALID_REQUEST', attribute);
  });

  test('8 and 256 characters are accepted', async () => {
    expect((await setCredentials(contact, { username: 'edge', password: '8chars!!' })).status).toBe(200);
    expect((await setCredentials(contact, { username: 'edge', password: 'y'.repeat(256) })).status).toBe(200);
  });
});

test("an unknown contact or another organisation's contact is 404", async () => {
  const contact = await createContact(a.secretKey, { code: 'CRED-TENANT' });
  expectError(await setCredentials(contact, { username: 'intruder', password: PASSWORDS[0] }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await setCredentials('CRED-TENANT', { username: 'intruder', password: PASSWORDS[0] }, b.secretKey), 404, 'NOT_FOUND');
  expectError(await setCredentials('no-such-contact', { username: 'nobody', password: PASSWORDS[0] }), 404, 'NOT_FOUND');
});

test('two contacts racing for one username: one wins, the other gets 409', async () => {
  const [one, two] = await Promise.all([createContact(a.secretKey), createContact(a.secretKey)]);
  const results = await Promise.all([one, two].map((c) => setCredentials(c, { username: 'race.winner', password: PASSWORDS[0] })));
  expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  expect(results.find((r) => r.status === 409)?.body.attribute).toBe('username');
});
