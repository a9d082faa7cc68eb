// Every operation of the OpenAPI document gets bad input, as a careless or hostile client would
// send it: a NUL in each string of the path, query and body, a wrong type for each body field,
// each required body field dropped, no body at all. Each must answer 4xx naming the field,
// never 5xx; no body is refused only where the document says the body is required.
import { api, type ApiResponse } from './support/api';
import { createTenant, type Tenant } from './support/tenants';
import { FIELD_KINDS } from './support/examples';

type Json = Record<string, any>;

let doc: Json;
let t: Tenant;
/** A well-formed id that names nothing: operations on it fail after validation, with 404. */
const NOBODY = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

beforeAll(async () => {
  doc = (await api('GET', '/openapi.json')).body;
  t = await createTenant('Bad input');
});

function resolve(node: Json): Json {
  if (typeof node?.$ref !== 'string') return node;
  const target = node.$ref.replace(/^#\//, '').split('/').reduce((at: Json, key: string) => at?.[key], doc);
  return resolve(target);
}

interface Op {
  method: string;
  path: string;
  id: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: Json }>;
  /** Path parameter examples that name no record (a report's name), usable as they are. */
  pathValues: Record<string, string>;
  body?: { schema: Json; example: unknown; required: boolean };
}

function operations(): Op[] {
  return Object.entries(doc.paths as Json).flatMap(([path, ops]) =>
    Object.entries(ops as Json).map(([method, raw]) => {
      const op = raw as Json;
      const params = ((op.parameters ?? []) as Json[]).map(resolve);
      const content = op.requestBody?.content?.['application/json'];
      return {
        method: method.toUpperCase(),
        path,
        id: op.operationId as string,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name as string),
        queryParams: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name as string, schema: resolve(p.schema ?? {}) })),
        pathValues: Object.fromEntries(params.filter((p) => p.in === 'path' && typeof p.example === 'string' && !UUID.test(p.example)).map((p) => [p.name, p.example])),
        body: content ? { schema: resolve(content.schema), example: content.example, required: op.requestBody.required === true } : undefined,
      };
    }),
  );
}

function url(op: Op, override: Record<string, string> = {}, query = ''): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => override[name] ?? NOBODY);
  return query ? `${path}?${query}` : path;
}

function send(op: Op, path: string, body?: unknown): Promise<ApiResponse> {
  return api(op.method, path, { key: t.secretKey, body });
}

function expectNamed(res: ApiResponse, attribute: string, what: string): void {
  const seen = { status: res.status, attribute: res.body?.attribute };
  if (res.status < 400 || res.status >= 500 || res.body?.attribute !== attribute) {
    throw new Error(`${what}: expected 4xx naming ${attribute}, got ${JSON.stringify(seen)} ${res.text.slice(0, 200)}`);
  }
}

/** Every leaf and inner node of a JSON value with its dotted path. */
function nodes(value: unknown, path: string[] = []): Array<{ path: string[]; value: unknown }> {
  const here = path.length ? [{ path, value }] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((v, i) => nodes(v, [...path, String(i)]))];
  if (value !== null && typeof value === 'object') return [...here, ...Object.entries(value).flatMap(([k, v]) => nodes(v, [...path, k]))];
  return here;
}

function replaced(value: unknown, path: string[], next: unknown | typeof DROP): unknown {
  const copy = structuredClone(value) as Json;
  const parent = path.slice(0, -1).reduce((at: Json, key) => at[key], copy);
  const last = path[path.length - 1];
  if (next === DROP) delete parent[last];
  else parent[last] = next;
  return copy;
}
const DROP = Symbol('drop');

/** The schema of an object node of the example, following properties and array items. */
function schemaAt(schema: Json, path: string[]): Json | undefined {
  let at: Json | undefined = resolve(schema);
  for (const key of path) {
    if (!at) return undefined;
    at = resolve(/^\d+$/.test(key) ? at.items : at.properties?.[key]);
  }
  return at;
}

/** `ids.0`, `purchase.contact_id`, `products.1.id`: a field that names a record (test/support/examples.ts FIELD_KINDS). */
const namesAnId = (attribute: unknown) =>
  typeof attribute === 'string' && attribute.split('.').filter((part) => !/^\d+$/.test(part)).some((part) => part === 'id' || part in FIELD_KINDS);

test('every operation with a body documents an example of it, and the example is valid', async () => {
  const missing = operations().filter((op) => op.body && op.body.example === undefined).map((op) => op.id);
  expect(missing).toEqual([]);
  const refused: string[] = [];
  for (const op of operations()) {
    if (!op.body) continue;
    // Valid input gets past validation: success, or a 401/404/409, or a 400 naming an id field about the (made-up) ids.
    const res = await send(op, url(op), op.body.example);
    const madeUpId = res.status === 400 && namesAnId(res.body?.attribute);
    if ((res.status === 400 && !madeUpId) || res.status >= 500) refused.push(`${op.id}: ${res.status} ${res.text.slice(0, 200)}`);
  }
  expect(refused).toEqual([]);
});

test('a NUL in any path parameter: 400 naming it', async () => {
  const failures: string[] = [];
  for (const op of operations()) {
    for (const name of op.pathParams) {
      const res = await send(op, url(op, { [name]: 'a%00b' }), op.body?.example);
      try {
        expectNamed(res, name, `${op.id} path ${name}`);
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
  }
  expect(failures).toEqual([]);
});

test('a NUL in any query parameter, and an unknown one: 400 naming it', async () => {
  const failures: string[] = [];
  for (const op of operations()) {
    for (const { name } of op.queryParams) {
      const res = await send(op, url(op, {}, `${name}=a%00b`), op.body?.example);
      try {
        expectNamed(res, name, `${op.id} query ${name}`);
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
    const res = await send(op, url(op, {}, 'no_such_parameter=1'), op.body?.example);
    try {
      expectNamed(res, 'no_such_parameter', `${op.id} unknown query parameter`);
    } catch (err) {
      failures.push((err as Error).message);
    }
  }
  expect(failures).toEqual([]);
});

test('bodies: a NUL in each string, a wrong type for each field, each required field dropped: 4xx naming it', async () => {
  const failures: string[] = [];
  let sent = 0;
  for (const op of operations()) {
    if (!op.body || op.body.example === undefined) continue;
    const { schema, example } = op.body;
    const cases: Array<{ what: string; attribute: string; body: unknown }> = [];
    for (const node of nodes(example)) {
      const attribute = node.path.join('.');
      if (typeof node.value === 'string') cases.push({ what: 'NUL', attribute, body: replaced(example, node.path, `${node.value}\u0000`) });
      // An object where a scalar belongs, a string where an object or array belongs.
      const wrong = node.value !== null && typeof node.value === 'object' ? 'not an object' : { unexpected: true };
      cases.push({ what: 'wrong type', attribute, body: replaced(example, node.path, wrong) });
    }
    for (const node of [{ path: [] as string[], value: example }, ...nodes(example)]) {
      if (node.value === null || typeof node.value !== 'object' || Array.isArray(node.value)) continue;
      for (const field of (schemaAt(schema, node.path)?.required ?? []) as string[]) {
        if (!(field in (node.value as Json))) continue;
        const path = [...node.path, field];
        cases.push({ what: 'required dropped', attribute: path.join('.'), body: replaced(example, path, DROP) });
      }
    }
    for (const c of cases) {
      sent++;
      const res = await send(op, url(op), c.body);
      try {
        expectNamed(res, c.attribute, `${op.id} ${c.what} ${c.attribute}`);
      } catch (err) {
        failures.push((err as Error).message);
      }
    }
  }
  expect(sent).toBeGreaterThan(100);
  expect(failures).toEqual([]);
});

test('a body that is not an object: 400, never 5xx or success', async () => {
  const failures: string[] = [];
  for (const op of operations()) {
    if (!op.body) continue;
    for (const body of [null, [], 'text', 42]) {
      const res = await api(op.method, url(op), { key: t.secretKey, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
      if (res.status !== 400) failures.push(`${op.id} body ${JSON.stringify(body)}: ${res.status}`);
    }
  }
  expect(failures).toEqual([]);
});

test('no body: 400 naming body where the document says the body is required, never refused for it where optional', async () => {
  const failures: string[] = [];
  const seen = { required: 0, optional: 0 };
  for (const op of operations()) {
    if (!op.body) continue;
    const path = url(op, op.pathValues);
    const res = await api(op.method, path, { key: t.secretKey });
    const got = `${res.status} ${res.body?.attribute ?? ''}`;
    if (op.body.required) {
      seen.required++;
      if (res.status !== 400 || res.body?.attribute !== 'body') failures.push(`${op.id} (required) no body: ${got}`);
      // An empty object is a body: the first field it lacks is named instead.
      const empty = await send(op, path, {});
      if (empty.status !== 400 || !empty.body?.attribute) failures.push(`${op.id} (required) {}: ${empty.status} ${empty.body?.attribute ?? ''}`);
    } else {
      seen.optional++;
      // A made-up id may answer 404; what must not happen is a refusal of the missing body.
      if (res.status === 400 || res.status >= 500) failures.push(`${op.id} (optional) no body: ${got} ${res.text.slice(0, 200)}`);
    }
  }
  expect(failures).toEqual([]);
  expect(seen.required).toBeGreaterThan(0);
  expect(seen.optional).toBeGreaterThan(0);
});
