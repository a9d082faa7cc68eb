// Bounded input (issue 20 part 4): no body of at most 1 MiB, whatever its shape, may hold the
// event loop. Each hostile body is sent while GET /health runs back to back beside it; the
// longest /health wait is the time the service could do nothing else.
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';

const MiB = 1024 * 1024;
const LIMIT = 64;
/** Generous for a shared CI machine; the recursive walk held the loop for seconds. */
const MAX_STALL_MS = 200;
/**
 * A body within the limit costs V8's JSON.parse whatever the service does after it: up to
 * ~100 ms for 1 MiB of some shapes on a loaded 2-core machine. That cost is measured here, in
 * this process, and allowed on top (the service's own checks: a fraction of it).
 */
const PARSE_FACTOR = 3;

/** `{"a":[[...]]}` nested `depth` containers deep, the object counting as the first. */
const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
/** As many items as fit in 1 MiB inside `{"a":[...]}` (or `open` ... `close`). */
const many = (item: (i: number) => string, open = '{"a":[', close = ']}') => {
  const items: string[] = [];
  for (let i = 0, size = open.length + close.length; ; i++) {
    const next = item(i);
    if ((size += next.length + 1) > MiB) break;
    items.push(next);
  }
  return `${open}${items.join(',')}${close}`;
};
const deepestObjects = (() => {
  const levels = Math.floor((MiB - 2) / 6);
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
})();
const MEMBERS = 1000;
const wideObject = many((i) => `"k${i}":0`, '{', '}');
/** Objects of MEMBERS distinct keys each: as wide as allowed, and every key new to V8. */
const wideObjects = (() => {
  let n = 0;
  const object = () => `{${Array.from({ length: MEMBERS }, () => `"k${n++}":0`).join(',')}}`;
  return many(object);
})();

const DEEP = `JSON nesting deeper than ${LIMIT} levels`;
const A_0_0 = ['a', ...Array(LIMIT - 1).fill('0')].join('.');

/** `refused`: the error of a body refused before JSON.parse, which may then not even cost that. */
const SHAPES: { name: string; body: string; status: number; refused?: { message: string; attribute: string } }[] = [
  { name: 'nested arrays, 1 MiB', body: nested(Math.floor((MiB - 8) / 2)), status: 400, refused: { message: DEEP, attribute: A_0_0 } },
  { name: 'nested objects, 1 MiB', body: deepestObjects, status: 400, refused: { message: DEEP, attribute: Array(LIMIT).fill('a').join('.') } },
  { name: 'depth 65', body: nested(LIMIT + 1), status: 400, refused: { message: DEEP, attribute: A_0_0 } },
  { name: 'depth 5,000', body: nested(5_000), status: 400, refused: { message: DEEP, attribute: A_0_0 } },
  { name: 'depth 100,000', body: nested(100_000), status: 400, refused: { message: DEEP, attribute: A_0_0 } },
  { name: 'wide object, 1 MiB', body: wideObject, status: 400, refused: { message: `JSON object with more than ${MEMBERS} members`, attribute: 'body' } },
  { name: `objects of ${MEMBERS} distinct keys, 1 MiB`, body: wideObjects, status: 400 },
  { name: 'small arrays, 1 MiB', body: many(() => '[0]'), status: 400 },
  { name: 'small objects with distinct keys, 1 MiB', body: many((i) => `{"k${i}":0}`), status: 400 },
  { name: 'short strings, 1 MiB', body: many(() => '"x"'), status: 400 },
  { name: 'long string, 1 MiB', body: JSON.stringify({ username: 'x'.repeat(MiB - 40), password: 'p' }), status: 400 },
  { name: 'nested arrays, over 1 MiB', body: nested(MiB / 2 + 8), status: 413 },
];

let tenant: Tenant;
beforeAll(async () => {
  tenant = await createTenant();
});

/** Sends the body while GET /health runs back to back; the longest /health wait is the stall. */
async function sendWithHealthProbe(path: string, body: string, key?: string) {
  let done = false;
  let stall = 0;
  const probing = (async () => {
    while (!done) {
      const start = performance.now();
      await api('GET', '/health');
      stall = Math.max(stall, performance.now() - start);
    }
  })();
  const start = performance.now();
  const res = await api('POST', path, { key, rawBody: body, headers: { 'content-type': 'application/json' } });
  const ms = performance.now() - start;
  done = true;
  await probing;
  return { res, ms, stall };
}

/**
 * The best of three: a stall the body causes shows in every send, while the scheduling noise
 * of a shared machine (other processes, garbage collection) rarely hits all three.
 */
async function bestOfThree<T>(run: () => Promise<T>, score: (t: T) => number): Promise<T> {
  const runs: T[] = [];
  for (let i = 0; i < 3; i++) runs.push(await run());
  return runs.reduce((best, r) => (score(r) < score(best) ? r : best));
}

const parseMs = (body: string) => {
  const start = performance.now();
  try {
    JSON.parse(body);
  } catch {
    // the body over the limit is still JSON; nothing to do
  }
  return performance.now() - start;
};

describe.each([
  { target: 'POST /users/login (no credential)', path: '/users/login', key: () => undefined },
  { target: 'POST /api_keys (secret key)', path: '/api_keys', key: () => tenant.secretKey },
])('$target', ({ path, key }) => {
  const report: string[] = [];
  afterAll(() => console.log(`${path}: shape, bytes, status, request ms, longest concurrent /health ms, JSON.parse here ms (best of 3)\n${report.join('\n')}`));

  test.each(SHAPES)('$name answers $status without stalling /health', async ({ name, body, status, refused }) => {
    await api('GET', '/health'); // warm connections
    const parse = await bestOfThree(async () => parseMs(body), (ms) => ms);
    const { res, ms, stall } = await bestOfThree(() => sendWithHealthProbe(path, body, key()), (r) => r.stall);
    report.push(`  ${name}: ${Buffer.byteLength(body)} B, ${res.status}, ${ms.toFixed(1)}, ${stall.toFixed(1)}, ${parse.toFixed(1)}`);
    expect(res.status).toBe(status);
    if (refused) expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', ...refused });
    expect(stall).toBeLessThan(MAX_STALL_MS + (refused || status === 413 ? 0 : PARSE_FACTOR * parse));
  });
});

test('depth 64 is allowed: the body reaches validation', async () => {
  const rawBody = nested(LIMIT).replace('{', '{"username":"u","password":"p",');
  const res = await api('POST', '/users/login', { rawBody, headers: { 'content-type': 'application/json' } });
  expect(res.status).toBe(400);
  expect(res.body).toMatchObject({ code: 'INVALID_REQUEST', attribute: 'a' });
});

test(`an object of ${MEMBERS} members is allowed, one more is named by its path`, async () => {
  const object = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;
  // With the fields login needs, so that an allowed body is refused only for its unknown `a`.
  const send = (rawBody: string) =>
    api('POST', '/users/login', { rawBody: rawBody.replace('{', '{"username":"u","password":"p",'), headers: { 'content-type': 'application/json' } });
  expect((await send(`{"a":[${object(MEMBERS)}]}`)).body).toMatchObject({ attribute: 'a' });
  // Commas and quotes inside strings are not members.
  const tricky = `{"s":"\\\\\\",,,",${object(MEMBERS - 1).slice(1)}`;
  expect((await send(`{"a":[${tricky}]}`)).body).toMatchObject({ attribute: 'a' });
  expect((await send(`{"a":[0,{"b\\"":${object(MEMBERS + 1)}}]}`)).body).toMatchObject({ attribute: 'a.1.b"', message: `JSON object with more than ${MEMBERS} members` });
});

test('a NUL character deep inside is still named by its path', async () => {
  const body = { username: 'u', password: 'p', a: [{ b: [0, 'x\u0000'] }] };
  const res = await api('POST', '/users/login', { body });
  expect(res.status).toBe(400);
  expect(res.body.attribute).toBe('a.0.b.1');
});

test('a UTF-16 body is scanned like a UTF-8 one', async () => {
  const rawBody = Buffer.from(nested(LIMIT + 1), 'utf16le');
  const res = await api('POST', '/users/login', { rawBody, headers: { 'content-type': 'application/json; charset=utf-16le' } });
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(`JSON nesting deeper than ${LIMIT} levels`);
});
