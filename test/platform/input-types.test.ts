// Value types every body shares (API-CONVENTIONS "Identifiers, values"), checked from outside:
// epochs are integers (nothing coerced), booleans take "true"/"false" everywhere, and a field
// that fails its own check is a 400 naming it even where a cross-field rule reads it.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { expectError, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { contactWithAccount, newWallet } from '../wallets/setup';

type Json = Record<string, any>;

let t: Tenant;
let root: Db;
let db: Db;

beforeAll(async () => {
  t = await createTenant('Input types');
  root = openDatabase();
  db = scopedClient(root, t.organisationId);
});
afterAll(() => root?.$disconnect());

const badRule = { period: 'DAILY', transaction_type: 'DEBIT', limit_amount: 'abc', maximum_amount: 5 };

test('a limit rule with an amount that does not parse: 400 naming it, wherever rules are taken', async () => {
  const { accountId } = await contactWithAccount(t.secretKey, db);
  const walletId = await newWallet(t.secretKey, accountId);
  const body = { limit_rules: [badRule] };
  expectError(await api('PUT', '/settings', { key: t.secretKey, body }), 400, 'INVALID_REQUEST', 'limit_rules.0.limit_amount');
  expectError(await api('POST', `/accounts/${accountId}/wallets`, { key: t.secretKey, body }), 400, 'INVALID_REQUEST', 'limit_rules.0.limit_amount');
  expectError(await api('PUT', `/wallets/${walletId}`, { key: t.secretKey, body }), 400, 'INVALID_REQUEST', 'limit_rules.0.limit_amount');
  // An unknown wallet with that body: the body is checked first, and it is still no 500.
  expectError(await api('PUT', '/wallets/0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10', { key: t.secretKey, body }), 400, 'INVALID_REQUEST', 'limit_rules.0.limit_amount');
  // The same for a minimum that does not parse beside a maximum it is compared with.
  const minimum = { limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', minimum_amount: '1.2.3', maximum_amount: 5 }] };
  expectError(await api('PUT', '/settings', { key: t.secretKey, body: minimum }), 400, 'INVALID_REQUEST', 'limit_rules.0.minimum_amount');
  // Nothing was written by the refused calls.
  expect((await api('GET', '/settings', { key: t.secretKey })).body.limit_rules).toEqual([]);
});

test('an epoch in a body is an integer: null, true, "", [], text and fractions are 400 naming it', async () => {
  for (const start of [null, true, false, '', [], '1735689600', 1735689600.5, -1, {}]) {
    const res = await api('POST', '/accounting_periods', { key: t.secretKey, body: { name: `p ${JSON.stringify(start)}`, start_date: start, end_date: 1738368000 } });
    expect([JSON.stringify(start), res.status, res.body?.attribute]).toEqual([JSON.stringify(start), 400, 'start_date']);
  }
  expect((await api('GET', '/accounting_periods', { key: t.secretKey })).body.paging.total).toBe(0);
  const ok = await api('POST', '/accounting_periods', { key: t.secretKey, body: { name: 'January', start_date: 1735689600, end_date: 1738368000 } });
  expect(ok.status).toBe(200);
});

test('an epoch in a query string is digits: anything else is 400 naming the parameter', async () => {
  for (const bad of ['abc', '', '1e9', '0x10', '-5', '1.5', '%20']) {
    const res = await api('GET', `/purchases?performed_on_from=${bad}`, { key: t.secretKey });
    expect([bad, res.status, res.body?.attribute]).toEqual([bad, 400, 'performed_on_from']);
  }
  expect((await api('GET', '/purchases?performed_on_from=1735689600', { key: t.secretKey })).status).toBe(200);
  expect((await api('GET', '/contacts?registered_on_from=1735689600', { key: t.secretKey })).status).toBe(200);
});

/** Every path from a body schema to a field that takes only a JSON boolean (not "true"/"false"). */
function strictBooleans(doc: Json, node: Json | undefined, path: string, seen = new Set<Json>()): string[] {
  if (!node || typeof node !== 'object' || seen.has(node)) return [];
  seen.add(node);
  if (typeof node.$ref === 'string') {
    const target = node.$ref.replace(/^#\//, '').split('/').reduce((at: Json, key: string) => at?.[key], doc);
    return strictBooleans(doc, target, path, seen);
  }
  const alternatives = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (alternatives) {
    const types = alternatives.map((a) => a.type);
    // A string alternative takes the text forms; a plain boolean alternative alone does not.
    if (types.includes('boolean') && types.includes('string')) return [];
    return alternatives.flatMap((a) => strictBooleans(doc, a, path, seen));
  }
  if (node.type === 'boolean') return [path];
  const inner = [
    ...Object.entries((node.properties ?? {}) as Record<string, Json>).map(([k, v]) => strictBooleans(doc, v, path ? `${path}.${k}` : k, seen)),
    ...((node.allOf ?? []) as Json[]).map((a) => strictBooleans(doc, a, path, seen)),
    strictBooleans(doc, node.items, `${path}.N`, seen),
    strictBooleans(doc, typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined, `${path}.*`, seen),
  ];
  return inner.flat();
}

test('every boolean of every request body accepts "true" and "false" as well (the OpenAPI document says so)', async () => {
  const doc = (await api('GET', '/openapi.json')).body as Json;
  const strict: string[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json)) {
      const schema = (op as Json).requestBody?.content?.['application/json']?.schema;
      for (const field of strictBooleans(doc, schema, '')) strict.push(`${method.toUpperCase()} ${path} ${field}`);
    }
  }
  expect(strict).toEqual([]);
});

test('string booleans work where the audit found them refused: ignore_preferences, is_archived', async () => {
  const code = `IT-${Date.now().toString(36)}`;
  const contact = await api('POST', '/contacts', {
    key: t.secretKey,
    body: { contact_type: 'PERSON', code, first_name: 'Bo', last_name: 'Olean', email_opt_out: true, emails: [{ email_address: 'bo@example.com', is_primary: true }] },
  });
  expect(contact.status).toBe(200);
  const send = (ignore: unknown) =>
    api('POST', '/communications', { key: t.secretKey, body: { name: 'Hi', contact_id: code, channel: 'EMAIL', subject: 'Hi', content: 'Hello', ignore_preferences: ignore } });
  const sent = await send('true');
  expect(sent.status).toBe(200);
  expectError(await send('yes'), 400, 'INVALID_REQUEST', 'ignore_preferences');
  const archived = await api('PUT', `/communications/${sent.body.id}`, { key: t.secretKey, body: { is_archived: 'true' } });
  expect(archived.status).toBe(200);
  const list = await api('GET', `/communications?contact_id=${contact.body.id}&is_archived=true`, { key: t.secretKey });
  expect(list.body.content.map((c: Json) => c.id)).toEqual([sent.body.id]);
});
