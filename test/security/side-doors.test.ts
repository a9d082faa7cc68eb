// Nothing secret or personal kept by a side door (issue 31, docs/security.md): idempotency records
// hold no secret in clear and nothing of an anonymised contact; anonymisation reaches the audit
// trail and activities; SMS templates encode what they substitute; creating a user does not
// reveal another organisation's usernames.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { loadConfig } from '../../src/config';
import type { Db } from '../../src/db/client';
import type { RouteDef } from '../../src/api/route';
import { allRoutes } from '../../src/api/routes';
import { SECRET_MARK } from '../../src/api/secret-fields';
import { createContact, settled } from '../communications/helpers';
import { createId, openDatabase } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

type Json = Record<string, any>;

let t: Tenant;
let root: Db;
const tag = `sd${process.pid}${Date.now().toString(36)}`;

beforeAll(async () => {
  t = await createTenant('Side doors');
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

/** The stored record of one Idempotency-Key of the tenant's secret key, as text. */
async function recordText(key: string): Promise<string> {
  const rows = await root.$queryRaw<Array<{ body: string }>>`
    SELECT response_body::text AS body FROM idempotency_records WHERE organisation_id = ${t.organisationId}::uuid AND key = ${key}`;
  expect(rows).toHaveLength(1);
  return rows[0].body;
}

describe('secrets in idempotency records', () => {
  /** The route list as the app builds it (as test/openapi.test.ts does). */
  function routes(): RouteDef[] {
    const deps = { config: loadConfig({}), db: {}, log: {}, jwtSecret: 'x'.repeat(32), health: async () => ({}), onKeyRevoked: () => undefined };
    return allRoutes(deps as unknown as Parameters<typeof allRoutes>[0]);
  }

  /** Every string field of a JSON schema, with its path and schema (following `$defs`). */
  function stringFields(node: Json, defs: Json, at: string, out: Array<[string, Json]>, seen = new Set<string>()): Array<[string, Json]> {
    if (typeof node.$ref === 'string') {
      const name = node.$ref.replace('#/$defs/', '');
      if (!seen.has(name)) stringFields(defs[name], defs, at, out, new Set([...seen, name]));
      return out;
    }
    const types = [node.type].flat();
    if (types.includes('string')) out.push([at, node]);
    for (const [k, v] of Object.entries((node.properties ?? {}) as Json)) stringFields(v, defs, at ? `${at}.${k}` : k, out, seen);
    if (node.items) stringFields(node.items, defs, `${at}[]`, out, seen);
    for (const part of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) stringFields(part, defs, at, out, seen);
    return out;
  }

  const SECRET_LIKE = /secret|password|token|(^|_)key$|api_key|pin$/i;

  test('every secret-like field of a response that an Idempotency-Key stores is marked, so the record never holds it in clear', () => {
    const unmarked: string[] = [];
    for (const def of routes()) {
      // Only POSTs with a credential store a response (src/api/app.ts).
      if (def.method !== 'post' || def.auth === 'none') continue;
      const json = z.toJSONSchema(def.response, { io: 'output', unrepresentable: 'any' }) as Json;
      for (const [at, schema] of stringFields(json, json.$defs ?? {}, '', [])) {
        if (SECRET_LIKE.test(at.split('.').pop()!.replace('[]', '')) && schema[SECRET_MARK] === undefined) unmarked.push(`${def.operationId} ${at}`);
      }
    }
    expect(unmarked).toEqual([]);
  });

  test('POST /webhooks and rotate_secret keep their signing secret sealed in the record; a replay answers it again', async () => {
    const key = t.secretKey;
    const create = { headers: { 'Idempotency-Key': `wh-${tag}` }, key, body: { name: 'Sealed', method: 'POST', url_endpoint: 'https://hooks.example.com/sealed' } };
    const made = await api('POST', '/webhooks', create);
    expect(made.status).toBe(200);
    expect(made.body.secret_key).toMatch(/^whsec_/);
    const stored = await recordText(`wh-${tag}`);
    expect(stored).not.toContain(made.body.secret_key);
    expect(stored).not.toContain(made.body.secret_key.slice('whsec_'.length));
    const again = await api('POST', '/webhooks', create);
    expect([again.status, again.headers['idempotent-replayed'], again.body]).toEqual([200, 'true', made.body]);

    const rotate = { headers: { 'Idempotency-Key': `rot-${tag}` }, key, body: {} };
    const rotated = await api('POST', `/webhooks/${made.body.id}/rotate_secret`, rotate);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret_key).not.toBe(made.body.secret_key);
    expect(await recordText(`rot-${tag}`)).not.toContain(rotated.body.secret_key.slice('whsec_'.length));
    expect((await api('POST', `/webhooks/${made.body.id}/rotate_secret`, rotate)).body).toEqual(rotated.body);
  });
});

describe('anonymisation reaches the side doors', () => {
  test('a replayed POST /contact_profiles, the credential audit row and linked activities keep nothing of an anonymised contact', async () => {
    const key = t.secretKey;
    const name = `Zephyrine${tag}`;
    const username = `zeph.${tag}`;
    const contact = await createId(key, '/contacts', { contact_type: 'PERSON', first_name: name, last_name: 'Quist' });
    expect((await api('POST', `/contacts/${contact}/credentials`, { key, body: { username, password: 'correct horse battery' } })).status).toBe(200);
    const activity = await createId(key, '/activities', { subject: `Call ${name}`, description: `${name} asked`, organisation_id: t.organisationId, entity: { type: 'CONTACT', id: contact } });
    const gone = await createId(key, '/activities', { subject: `Visit ${name}`, organisation_id: t.organisationId, entity: { type: 'CONTACT', id: contact } });
    expect((await api('DELETE', `/activities/${gone}`, { key })).status).toBe(200);
    const lookup = { key, body: { ids: [contact] }, headers: { 'Idempotency-Key': `prof-${tag}` } };
    const first = await api('POST', '/contact_profiles', lookup);
    expect(JSON.stringify(first.body)).toContain(name);

    expect((await api('POST', `/contacts/${contact}/anonymize`, { key })).status).toBe(200);

    const replay = await api('POST', '/contact_profiles', lookup);
    expect([replay.status, replay.body.code]).toEqual([409, 'IDEMPOTENCY_RESPONSE_ERASED']);
    expect(replay.text).not.toContain(name);
    const got = await api('GET', `/activities/${activity}`, { key });
    expect(got.status).toBe(200);
    expect(JSON.stringify(got.body)).not.toContain(name);
    const audits = await root.$queryRaw<Array<{ changes: string }>>`
      SELECT changes::text AS changes FROM audit_entries WHERE organisation_id = ${t.organisationId}::uuid AND changes IS NOT NULL`;
    expect(audits.filter((a) => a.changes.includes(username) || a.changes.includes(name))).toEqual([]);
  });
});

describe('SMS body templates', () => {
  test('{{to}}, {{message}} and {{from}} are encoded for the body: a message cannot add a form field', async () => {
    const hits: Array<{ type?: string; body: string }> = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        hits.push({ type: req.headers['content-type'], body });
        res.end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const key = t.secretKey;
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
      const integration = await createId(key, '/integrations', {
        name: 'Form SMS', channel: 'SMS', provider: 'HTTP',
        settings: { url, method: 'POST', auth: { type: 'NONE' }, body_template: 'to={{to}}&message={{message}}&from={{from}}', from: 'SHOP&x=1' },
      });
      const contact = await createContact(key, { first_name: 'Sam', phones: [{ number: '+357 99 000 222' }] });
      const id = await createId(key, '/communications', { name: 'Inject', contact_id: contact, channel: 'SMS', integration_id: integration, content: 'hello&from=EVIL' });
      expect((await settled(key, id)).life_cycle_state).toBe('SENT');
      expect(hits).toHaveLength(1);
      expect(hits[0].type).toMatch(/^application\/x-www-form-urlencoded/);
      expect([...new URLSearchParams(hits[0].body)]).toEqual([['to', '+357 99 000 222'], ['message', 'hello&from=EVIL'], ['from', 'SHOP&x=1']]);
    } finally {
      server.close();
    }
  });
});

describe('usernames', () => {
  test("creating a user answers the same whether or not another organisation has that username; each signs in to their own", async () => {
    const other = await createTenant('Side doors other');
    const username = `ops.${tag}`;
    const create = (key: string, password: string, name = username) => api('POST', '/users', { key, body: { username: name, password, scopes: ['contacts:read'] } });
    const mine = await create(other.secretKey, 'first horse battery staple');
    expect(mine.status).toBe(200);
    const theirs = await create(t.secretKey, 'second horse battery staple');
    const fresh = await create(t.secretKey, 'third horse battery staple', `fresh.${tag}`);
    expect([theirs.status, Object.keys(theirs.body)]).toEqual([fresh.status, Object.keys(fresh.body)]);
    expect(theirs.status).toBe(200);
    // Within one organisation a username stays unique.
    const again = await create(t.secretKey, 'fourth horse battery staple');
    expect([again.status, again.body.code, again.body.attribute]).toEqual([409, 'ALREADY_EXISTS', 'username']);

    for (const [password, id] of [['first horse battery staple', mine.body.id], ['second horse battery staple', theirs.body.id]]) {
      const signed = await api('POST', '/users/login', { body: { username, password } });
      expect(signed.status).toBe(200);
      expect((await api('GET', '/users/me', { token: signed.body.access_token })).body.id).toBe(id);
    }
  });
});
