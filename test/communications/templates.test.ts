// Communication templates over HTTPS (spec 2.10, 4.7; docs/communications.md "Templates"):
// contents per language, placeholders checked at write time, the one shape.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { createId, expectError, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Templates A'), createTenant('Templates B')]);
  root = openDatabase();
});

afterAll(async () => {
  await root?.$disconnect();
});

const ENG = {
  language: 'ENG',
  subject: 'Welcome {{contact.first_name}}',
  rich_content: '<p>Dear {{ contact.first_name }} {{contact.last_name}}</p>',
  plain_content: 'Dear {{contact.first_name}}',
};
const get = (id: string, key = a.secretKey) => api('GET', `/communication_templates/${id}`, { key });
const put = (id: string, body: object, key = a.secretKey) => api('PUT', `/communication_templates/${id}`, { key, body });

test('create, read, list (same item shape, with id), partial update, delete; audited', async () => {
  const id = await createId(a.secretKey, '/communication_templates', { name: 'Welcome', contents: [ENG, { language: 'ell', plain_content: 'Γεια {{contact.code}}' }] });
  const got = await get(id);
  expect(got.body).toEqual({
    id, code: null, name: 'Welcome',
    contents: [
      { ...ENG, language: 'eng' },
      { language: 'ell', subject: null, rich_content: null, plain_content: 'Γεια {{contact.code}}' },
    ],
    created_on: expect.any(Number), updated_on: expect.any(Number),
  });
  const list = (await api('GET', '/communication_templates?name=welc&sort=name&order=ASC&page=1&size=5', { key: a.secretKey })).body;
  expect(list).toEqual({ content: [got.body], paging: { page: 1, size: 5, total: 1 } });
  expect((await api('GET', '/communication_templates?name=nothing', { key: a.secretKey })).body.paging.total).toBe(0);

  expect((await put(id, { name: 'Hello', code: 'HELLO' })).body).toEqual({ id });
  expect((await get(id)).body).toMatchObject({ name: 'Hello', code: 'HELLO', contents: got.body.contents });
  expect((await put(id, { contents: [{ language: 'fra', subject: 'Bonjour' }] })).status).toBe(200);
  expect((await get(id)).body.contents).toEqual([{ language: 'fra', subject: 'Bonjour', rich_content: null, plain_content: null }]);
  expect((await api('GET', '/communication_templates?code=HELLO', { key: a.secretKey })).body.content.map((t: { id: string }) => t.id)).toEqual([id]);

  expect((await api('DELETE', `/communication_templates/${id}`, { key: a.secretKey })).body).toEqual({ id });
  expectError(await get(id), 404, 'NOT_FOUND');
  const audits = await scopedClient(root, a.organisationId).auditEntry.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } });
  expect(audits.map((e) => [e.entityType, e.action])).toEqual([
    ['communication_template', 'CREATE'], ['communication_template', 'UPDATE'], ['communication_template', 'UPDATE'], ['communication_template', 'DELETE'],
  ]);
});

test('each rule: 400 naming its attribute (placeholders checked at write time)', async () => {
  const cases: Array<[object, string]> = [
    [{ contents: [ENG] }, 'name'],
    [{ name: 'x' }, 'contents'],
    [{ name: 'x', contents: [] }, 'contents'],
    [{ name: 'x', contents: [{ ...ENG, language: 'en' }] }, 'contents.0.language'],
    [{ name: 'x', contents: [ENG, { language: 'ell' }, { language: 'eng', subject: 's' }] }, 'contents.2.language'],
    [{ name: 'x', contents: [{ ...ENG, subject: 'Hi {{contact.password}}' }] }, 'contents.0.subject'],
    [{ name: 'x', contents: [{ language: 'ell' }, { ...ENG, rich_content: '<p>{{ first_name }}</p>' }] }, 'contents.1.rich_content'],
    [{ name: 'x', contents: [{ ...ENG, plain_content: '{{}}' }] }, 'contents.0.plain_content'],
    [{ name: 'x', contents: [{ ...ENG, extra: 1 }] }, 'contents.0.extra'],
  ];
  for (const [body, attribute] of cases) {
    const res = await api('POST', '/communication_templates', { key: a.secretKey, body });
    expect([attribute, res.status, res.body.attribute]).toEqual([attribute, 400, attribute]);
  }
  const id = await createId(a.secretKey, '/communication_templates', { name: 'Kept', contents: [ENG] });
  expectError(await put(id, { contents: [{ language: 'eng', plain_content: '{{contact.balance}}' }] }), 400, 'INVALID_REQUEST', 'contents.0.plain_content');
  expect((await get(id)).body.contents).toEqual([{ ...ENG, language: 'eng' }]);
  expect(res400Message((await api('POST', '/communication_templates', { key: a.secretKey, body: { name: 'x', contents: [{ language: 'eng', subject: '{{contact.x}}' }] } })).body)).toMatch(/contact\.first_name/);
});

function res400Message(body: { message: string }): string {
  return body.message;
}

test('409 ALREADY_EXISTS on a duplicate code; 404 for another organisation', async () => {
  const id = await createId(a.secretKey, '/communication_templates', { name: 'Dup', code: 'DUP', contents: [ENG] });
  expectError(await api('POST', '/communication_templates', { key: a.secretKey, body: { name: 'Dup', code: 'DUP', contents: [ENG] } }), 409, 'ALREADY_EXISTS', 'code');
  for (const target of [id, UNKNOWN_ID]) {
    expectError(await get(target, b.secretKey), 404, 'NOT_FOUND');
    expectError(await put(target, { name: 'hijack' }, b.secretKey), 404, 'NOT_FOUND');
    expectError(await api('DELETE', `/communication_templates/${target}`, { key: b.secretKey }), 404, 'NOT_FOUND');
  }
  expect((await api('GET', '/communication_templates', { key: b.secretKey })).body.paging.total).toBe(0);
});
