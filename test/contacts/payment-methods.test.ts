// Payment methods of a contact over HTTPS: cards (masked only), bank accounts (IBAN checked),
// online gateway accounts, the default flag, billing-address copy, delete, tenant isolation.
import { api, type ApiResponse } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
const NEXT_YEAR = new Date().getUTCFullYear() + 1;
const PAN = '4111111111111111';

const ADDRESS = { address_type: 'HOME', is_primary: true, address_line_1: '1 High Street', address_line_2: 'Flat 2', town_city: 'London', state_province_county: 'Greater London', postal_code: 'N1 1AA', country_code: 'GBR' };

async function createContact(key: string, extra: object = {}): Promise<string> {
  const res = await api('POST', '/contacts', { key, body: { contact_type: 'PERSON', first_name: 'Ada', last_name: 'Lovelace', ...extra } });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const card = (over: object = {}) => ({ brand: 'VISA', card_number: '411111******1111', expiration_month: 12, expiration_year: NEXT_YEAR, ...over });

function add(contact: string, body: object, key = a.secretKey) {
  return api('POST', `/contacts/${contact}/payment_methods`, { key, body });
}

async function addId(contact: string, body: object): Promise<string> {
  const res = await add(contact, body);
  expect(res.status).toBe(200);
  return res.body.id as string;
}

async function list(contact: string, key = a.secretKey) {
  const res = await api('GET', `/contacts/${contact}/payment_methods?size=100`, { key });
  expect(res.status).toBe(200);
  return res.body.content as Array<Record<string, any>>;
}

function expectError(res: ApiResponse, status: number, code: string, attribute?: string) {
  expect({ status: res.status, code: res.body?.code, attribute: res.body?.attribute }).toEqual({ status, code, attribute });
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Payment methods A'), createTenant('Payment methods B')]);
});

describe('cards', () => {
  let contact: string;
  beforeAll(async () => {
    contact = await createContact(a.secretKey, { code: 'PM-CARD', accounts: [{ name: 'Main', is_primary: true, currency_code: 'EUR' }] });
  });

  test('a masked card is stored and listed with its primary account', async () => {
    const before = Math.floor(Date.now() / 1000) - 1;
    const id = await addId(contact, {
      payment_method_type: 'CARD',
      notes: 'corporate card',
      card: card({ name: 'Ada L', card_number: '4111 11XX XXXX 1111', fingerprint: 'fp_abc', funding_type: 'DEBIT', classification: { id: 'gold', name: 'Gold' } }),
      card_holder_details: { card_holder_name: 'Ada Lovelace', address_line_1: '2 Low Road', address_city: 'Leeds', address_country: 'gbr' },
      card_gateway_token: [{ gateway: 'STRIPE', token: 'pm_123' }, { gateway: 'GENERIC', gateway_code: 'acme-pay', token: 'tok_9' }],
    });
    const [item] = (await list(contact)).filter((m) => m.id === id);
    expect(item).toMatchObject({
      id,
      payment_method_type: 'CARD',
      bank: [],
      payment_gateway_token: null,
      card: { name: 'Ada L', brand_name: 'VISA', card_number: '411111******1111', first6: '411111', last4: '1111', expiration_month: 12, expiration_year: NEXT_YEAR, funding_type: 'DEBIT', classification: { id: 'gold', name: 'Gold' } },
      card_holder_details: { card_holder_name: 'Ada Lovelace', address_line_1: '2 Low Road', address_city: 'Leeds', address_country: 'GBR', use_billing_address: false },
      is_default: true,
      notes: 'corporate card',
    });
    expect(item.accounts).toEqual([{ id: expect.any(String), number: expect.any(String), name: 'Main' }]);
    expect(item.created_on).toBeGreaterThanOrEqual(before);
    // Gateway tokens are write-only.
    expect(JSON.stringify(item)).not.toContain('pm_123');
  });

  test('the contact code and the 32-hex id name the same contact', async () => {
    const byCode = await list('PM-CARD');
    const byHex = await list(contact.replace(/-/g, '').toUpperCase());
    expect(byCode.map((m) => m.id)).toEqual(byHex.map((m) => m.id));
    expect(byCode.length).toBeGreaterThan(0);
  });

  test('a full card number is refused, never stored and never echoed', async () => {
    const count = (await list(contact)).length;
    for (const number of [PAN, '4111-1111-1111-1111', '4111 1111 1111 1111']) {
      const res = await add(contact, { payment_method_type: 'CARD', card: card({ card_number: number }) });
      expectError(res, 400, 'INVALID_REQUEST', 'card.card_number');
      expect(res.text).not.toContain('1111111111');
    }
    const after = await list(contact);
    expect(after).toHaveLength(count);
    expect(JSON.stringify(after)).not.toContain(PAN);
  });

  test('is_default true leaves exactly one default', async () => {
    const first = await addId(contact, { payment_method_type: 'CARD', card: card() });
    const second = await addId(contact, { payment_method_type: 'CARD', is_default: 'true', card: card({ card_number: '************4242' }) });
    const defaults = (await list(contact)).filter((m) => m.is_default).map((m) => m.id);
    expect(defaults).toEqual([second]);
    expect(first).not.toBe(second);
    const third = await addId(contact, { payment_method_type: 'CARD', card: card({ is_default: true }) });
    expect((await list(contact)).filter((m) => m.is_default).map((m) => m.id)).toEqual([third]);
  });

  test('a client-chosen id is kept; reusing it is 409 on id', async () => {
    const id = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a77';
    expect(await addId(contact, { id: id.replace(/-/g, ''), payment_method_type: 'CARD', card: card() })).toBe(id);
    expectError(await add(contact, { id, payment_method_type: 'CARD', card: card() }), 409, 'ALREADY_EXISTS', 'id');
  });
});

describe('bank accounts and online gateway accounts', () => {
  let contact: string;
  beforeAll(async () => {
    contact = await createContact(a.secretKey);
  });

  test('an IBAN in printed form is checked and stored in electronic form', async () => {
    const id = await addId(contact, { payment_method_type: 'BANK', bank: { iban: 'gb82 west 1234 5698 7654 32', bank: 'West Bank', branch: 'City', sort_code: '12-34-56' } });
    const [item] = (await list(contact)).filter((m) => m.id === id);
    expect(item.bank).toEqual([{ iban: 'GB82WEST12345698765432', bank: 'West Bank', branch: 'City', sort_code: '12-34-56', account_number: null }]);
    expect(item.card).toBeNull();
  });

  test('an account number alone is enough', async () => {
    const id = await addId(contact, { payment_method_type: 'BANK', bank: { account_number: '98765432', sort_code: '12-34-56' } });
    const [item] = (await list(contact)).filter((m) => m.id === id);
    expect(item.bank[0]).toMatchObject({ account_number: '98765432', iban: null });
  });

  test('an online gateway account lists its username as payment_gateway_token', async () => {
    const id = await addId(contact, { payment_method_type: 'PAYPAL', payment_gateway_token: 'ada@example.com' });
    const [item] = (await list(contact)).filter((m) => m.id === id);
    expect(item).toMatchObject({ payment_method_type: 'PAYPAL', payment_gateway_token: 'ada@example.com', bank: [], card: null });
  });
});

describe('validation names the offending field', () => {
  let contact: string;
  beforeAll(async () => {
    contact = await createContact(a.secretKey);
  });

  const cases: Array<[string, object, string]> = [
    ['IBAN checksum', { payment_method_type: 'BANK', bank: { iban: 'GB83WEST12345698765432' } }, 'bank.iban'],
    ['IBAN length', { payment_method_type: 'BANK', bank: { iban: 'DE8937040044053201300' } }, 'bank.iban'],
    ['IBAN country', { payment_method_type: 'BANK', bank: { iban: 'US82WEST12345698765432' } }, 'bank.iban'],
    ['BANK without bank', { payment_method_type: 'BANK' }, 'bank'],
    ['bank without account_number or iban', { payment_method_type: 'BANK', bank: { bank: 'West Bank' } }, 'bank.account_number'],
    ['CARD without card', { payment_method_type: 'CARD' }, 'card'],
    ['card on a BANK method', { payment_method_type: 'BANK', bank: { account_number: '1' }, card: card() }, 'card'],
    ['bank on a CARD method', { payment_method_type: 'CARD', card: card(), bank: { account_number: '1' } }, 'bank'],
    ['full PAN', { payment_method_type: 'CARD', card: card({ card_number: PAN }) }, 'card.card_number'],
    ['unmasked middle digits', { payment_method_type: 'CARD', card: card({ card_number: '4111111*****1111' }) }, 'card.card_number'],
    ['last4 disagrees', { payment_method_type: 'CARD', card: card({ last4: '4242' }) }, 'card.last4'],
    ['first6 disagrees', { payment_method_type: 'CARD', card: card({ first6: '555555' }) }, 'card.first6'],
    ['expired year', { payment_method_type: 'CARD', card: card({ expiration_year: NEXT_YEAR - 2 }) }, 'card.expiration_year'],
    ['month out of range', { payment_method_type: 'CARD', card: card({ expiration_month: 13 }) }, 'card.expiration_month'],
    ['CVV is never accepted', { payment_method_type: 'CARD', card: card({ cvv: '123' }) }, 'card.cvv'],
    ['GENERIC gateway without gateway_code', { payment_method_type: 'CARD', card: card(), card_gateway_token: [{ gateway: 'GENERIC', token: 't' }] }, 'card_gateway_token.0.gateway_code'],
    ['unknown gateway', { payment_method_type: 'CARD', card: card(), card_gateway_token: [{ gateway: 'ACME', token: 't' }] }, 'card_gateway_token.0.gateway'],
    ['unknown type', { payment_method_type: 'CHEQUE' }, 'payment_method_type'],
    ['online method without username', { payment_method_type: 'STRIPE' }, 'payment_gateway_token'],
    ['no billing address to copy', { payment_method_type: 'CARD', card: card(), card_holder_details: { use_billing_address: true } }, 'card_holder_details.use_billing_address'],
  ];

  test.each(cases)('%s', async (_name, body, attribute) => {
    expectError(await add(contact, body), 400, 'INVALID_REQUEST', attribute);
  });

  test('an expired month of the current year names expiration_month', async () => {
    const now = new Date();
    if (now.getUTCMonth() === 0) return; // January: no earlier month this year
    const res = await add(contact, { payment_method_type: 'CARD', card: card({ expiration_month: now.getUTCMonth(), expiration_year: now.getUTCFullYear() }) });
    expectError(res, 400, 'INVALID_REQUEST', 'card.expiration_month');
  });

  test('nothing was stored by the refused requests', async () => {
    expect(await list(contact)).toEqual([]);
  });
});

test('use_billing_address copies the primary address into the holder fields', async () => {
  const contact = await createContact(a.secretKey, { addresses: [ADDRESS] });
  const id = await addId(contact, {
    payment_method_type: 'CARD',
    card: card(),
    card_holder_details: { card_holder_name: 'Ada Lovelace', address_line_1: 'ignored', use_billing_address: true },
  });
  const [item] = await list(contact);
  expect(item.id).toBe(id);
  expect(item.card_holder_details).toEqual({
    card_holder_name: 'Ada Lovelace',
    address_line_1: '1 High Street',
    address_line_2: 'Flat 2',
    address_city: 'London',
    address_zip: 'N1 1AA',
    address_state: 'Greater London',
    address_country: 'GBR',
    use_billing_address: true,
  });
});

test('delete removes a method from the list; a second delete is 404', async () => {
  const contact = await createContact(a.secretKey);
  const keep = await addId(contact, { payment_method_type: 'CARD', card: card() });
  const gone = await addId(contact, { payment_method_type: 'BANK', bank: { iban: 'DE89370400440532013000' } });
  const res = await api('DELETE', `/contacts/${contact}/payment_methods/${gone}`, { key: a.secretKey });
  expect(res.status).toBe(200);
  expect(res.body).toEqual({ id: gone });
  expect((await list(contact)).map((m) => m.id)).toEqual([keep]);
  expectError(await api('DELETE', `/contacts/${contact}/payment_methods/${gone}`, { key: a.secretKey }), 404, 'NOT_FOUND');
  // A method of another contact is not found through this contact.
  const other = await createContact(a.secretKey);
  expectError(await api('DELETE', `/contacts/${other}/payment_methods/${keep}`, { key: a.secretKey }), 404, 'NOT_FOUND');
});

describe('tenancy and access', () => {
  let contact: string;
  let method: string;
  beforeAll(async () => {
    contact = await createContact(a.secretKey, { code: 'PM-TENANT' });
    method = await addId(contact, { payment_method_type: 'CARD', card: card() });
  });

  test("another organisation's contact is not found", async () => {
    expectError(await add(contact, { payment_method_type: 'CARD', card: card() }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('GET', `/contacts/${contact}/payment_methods`, { key: b.secretKey }), 404, 'NOT_FOUND');
    expectError(await api('GET', '/contacts/PM-TENANT/payment_methods', { key: b.secretKey }), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/contacts/${contact}/payment_methods/${method}`, { key: b.secretKey }), 404, 'NOT_FOUND');
    const mine = await createContact(b.secretKey);
    expectError(await api('DELETE', `/contacts/${mine}/payment_methods/${method}`, { key: b.secretKey }), 404, 'NOT_FOUND');
    expect((await list(contact)).map((m) => m.id)).toEqual([method]);
  });

  test('an unknown contact is 404; no credential is 401', async () => {
    expectError(await api('GET', '/contacts/no-such-code/payment_methods', { key: a.secretKey }), 404, 'NOT_FOUND');
    expect((await api('GET', `/contacts/${contact}/payment_methods`)).status).toBe(401);
  });

  test('a read-only key can list but not add', async () => {
    const created = await api('POST', '/api_keys', { key: a.secretKey, body: { name: 'read only', scopes: ['contacts:read'] } });
    expect(created.status).toBe(200);
    const key = created.body.key as string;
    expect((await api('GET', `/contacts/${contact}/payment_methods`, { key })).status).toBe(200);
    expectError(await add(contact, { payment_method_type: 'CARD', card: card() }, key), 403, 'FORBIDDEN');
  });
});

test('anonymising the contact erases its payment methods and credentials; nothing new can be added', async () => {
  const contact = await createContact(a.secretKey);
  await addId(contact, { payment_method_type: 'CARD', card: card() });
  expect((await api('POST', `/contacts/${contact}/credentials`, { key: a.secretKey, body: { username: 'to.be.erased', password: 'erase me please' } })).status).toBe(200);
  expect((await api('POST', `/contacts/${contact}/anonymize`, { key: a.secretKey })).status).toBe(200);

  expect(await list(contact)).toEqual([]);
  expectError(await add(contact, { payment_method_type: 'CARD', card: card() }), 409, 'CONTACT_ANONYMIZED');
  const again = await api('POST', `/contacts/${contact}/credentials`, { key: a.secretKey, body: { username: 'back.again', password: 'erase me please' } });
  expectError(again, 409, 'CONTACT_ANONYMIZED');
  // The username was erased with the credentials, so another contact may take it.
  const other = await createContact(a.secretKey);
  expect((await api('POST', `/contacts/${other}/credentials`, { key: a.secretKey, body: { username: 'to.be.erased', password: 'erase me please' } })).status).toBe(200);
});

test('concurrent "default" methods still leave exactly one default', async () => {
  const contact = await createContact(a.secretKey);
  const results = await Promise.all(Array.from({ length: 5 }, () => add(contact, { payment_method_type: 'CARD', is_default: true, card: card() })));
  expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  const methods = await list(contact);
  expect(methods).toHaveLength(5);
  expect(methods.filter((m) => m.is_default)).toHaveLength(1);
});
