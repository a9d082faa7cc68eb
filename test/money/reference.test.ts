// Organisation settings over HTTPS (GET|PUT /settings), and the scopes of every money
// reference-data operation. The other resources have their own files beside this one.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { expectError, keyWith } from './helpers';

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Money settings A'), createTenant('Money settings B')]);
});

const put = (body: object, key = a.secretKey) => api('PUT', '/settings', { key, body });
const get = (key = a.secretKey) => api('GET', '/settings', { key });

describe('settings', () => {
  test('defaults until set', async () => {
    const res = await get(b.secretKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      system_currency_code: 'EUR',
      alternative_currency_code: null,
      alternative_currency_rate: null,
      credit_limit_min: null,
      credit_limit_max: null,
      default_wallet_minimum_balance: 0,
      limit_rules: [],
      time_zone: 'UTC',
      updated_on: null,
    });
  });

  test('PUT sets exact amounts and answers the settings; partial updates keep the rest', async () => {
    const res = await put({
      system_currency_code: 'usd',
      alternative_currency_code: 'pts',
      alternative_currency_rate: '0.12345678',
      credit_limit_min: 10.5,
      credit_limit_max: '1234567.8901',
      default_wallet_minimum_balance: -25.25,
      limit_rules: [
        { period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: 0.01, limit_amount: 500 },
        { period: 'ANNUAL', transaction_type: 'TRANSFER', maximum_amount: 10000 },
      ],
    });
    expect(res.status).toBe(200);
    const expected = {
      system_currency_code: 'USD',
      alternative_currency_code: 'PTS',
      alternative_currency_rate: 0.12345678,
      credit_limit_min: 10.5,
      credit_limit_max: 1234567.8901,
      default_wallet_minimum_balance: -25.25,
      limit_rules: [
        { period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: 0.01, maximum_amount: 500 },
        { period: 'ANNUAL', transaction_type: 'TRANSFER', minimum_amount: null, maximum_amount: 10000 },
      ],
      time_zone: 'UTC',
    };
    expect(res.body).toMatchObject(expected);
    expect(typeof res.body.updated_on).toBe('number');
    expect((await get()).body).toEqual(res.body);

    const partial = await put({ credit_limit_max: 2000 });
    expect(partial.body).toEqual({ ...expected, credit_limit_max: 2000, updated_on: expect.any(Number) });
    // Clearing the alternative currency clears its rate.
    const cleared = await put({ alternative_currency_code: null, limit_rules: [] });
    expect(cleared.body).toMatchObject({ alternative_currency_code: null, alternative_currency_rate: null, limit_rules: [], credit_limit_max: 2000 });
    // Another organisation is untouched.
    expect((await get(b.secretKey)).body.system_currency_code).toBe('EUR');
  });

  test('rules name the field, and a refused PUT changes nothing', async () => {
    await put({ system_currency_code: 'EUR', alternative_currency_code: null, credit_limit_min: 100, credit_limit_max: 200 });
    const before = (await get()).body;
    const cases: Array<[object, string]> = [
      [{ alternative_currency_code: 'PTS' }, 'alternative_currency_rate'],
      [{ alternative_currency_rate: 2 }, 'alternative_currency_rate'],
      [{ alternative_currency_code: 'PTS', alternative_currency_rate: 0 }, 'alternative_currency_rate'],
      [{ alternative_currency_code: 'PTS', alternative_currency_rate: '1.123456789' }, 'alternative_currency_rate'],
      [{ alternative_currency_code: 'eur', alternative_currency_rate: 1 }, 'alternative_currency_code'],
      [{ alternative_currency_code: 'POINTS-TOO-LONG', alternative_currency_rate: 1 }, 'alternative_currency_code'],
      [{ credit_limit_min: 300 }, 'credit_limit_max'],
      [{ credit_limit_max: 50 }, 'credit_limit_max'],
      [{ credit_limit_min: -1 }, 'credit_limit_min'],
      [{ credit_limit_max: 1.23456 }, 'credit_limit_max'],
      [{ system_currency_code: 'EURO' }, 'system_currency_code'],
      [{ default_wallet_minimum_balance: 'ten' }, 'default_wallet_minimum_balance'],
      [{ limit_rules: [{ period: 'WEEKLY', transaction_type: 'DEBIT', maximum_amount: 1 }] }, 'limit_rules.0.period'],
      [{ limit_rules: [{ period: 'DAILY', transaction_type: 'CREDIT', maximum_amount: 1 }] }, 'limit_rules.0.transaction_type'],
      [{ limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT' }] }, 'limit_rules.0.maximum_amount'],
      [{ limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: 10, maximum_amount: 5 }] }, 'limit_rules.0.maximum_amount'],
      [{ limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', maximum_amount: 5, limit_amount: 6 }] }, 'limit_rules.0.limit_amount'],
      [{ limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', maximum_amount: -5 }] }, 'limit_rules.0.maximum_amount'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, attribute] of cases) {
      expectError(await put(body), 400, 'INVALID_REQUEST', attribute);
    }
    expect((await get()).body).toEqual(before);
  });

  test('no credential: 401', async () => {
    expectError(await api('GET', '/settings'), 401, 'INVALID_CREDENTIAL');
  });
});

describe('scopes', () => {
  const referenceData = ['/organisations', '/product_types', '/product_families', '/products', '/spend_conditions'];
  const settings = ['/settings', '/accounting_periods'];

  test('settings and accounting periods need `settings`; the network, products and spend conditions `reference_data`', async () => {
    const referenceOnly = await keyWith(a.secretKey, ['reference_data']);
    const settingsOnly = await keyWith(a.secretKey, ['settings']);
    for (const path of settings) {
      expectError(await api('GET', path, { key: referenceOnly }), 403, 'FORBIDDEN');
      expect((await api('GET', path, { key: settingsOnly })).status).toBe(200);
    }
    for (const path of referenceData) {
      expectError(await api('GET', path, { key: settingsOnly }), 403, 'FORBIDDEN');
      expect((await api('GET', path, { key: referenceOnly })).status).toBe(200);
    }
    expectError(await put({ credit_limit_max: 1 }, referenceOnly), 403, 'FORBIDDEN');
    expectError(await api('POST', '/accounting_periods', { key: referenceOnly, body: { name: 'x', start_date: 0, end_date: 1 } }), 403, 'FORBIDDEN');
    expectError(await api('POST', '/products', { key: settingsOnly, body: { sku: 'x', name: 'x' } }), 403, 'FORBIDDEN');
  });

  test('a read-only scope cannot write', async () => {
    const readSettings = await keyWith(a.secretKey, ['settings:read']);
    expect((await get(readSettings)).status).toBe(200);
    expectError(await put({ credit_limit_max: 1 }, readSettings), 403, 'FORBIDDEN');
    const readReference = await keyWith(a.secretKey, ['reference_data:read']);
    expect((await api('GET', '/spend_conditions', { key: readReference })).status).toBe(200);
    expectError(await api('POST', '/spend_conditions', { key: readReference, body: { name: 'x' } }), 403, 'FORBIDDEN');
    expectError(await api('DELETE', `/organisations/${'0'.repeat(32)}`, { key: readReference }), 403, 'FORBIDDEN');
  });
});
