// Tenancy (API-CONVENTIONS "Authentication and tenancy", docs/security.md "Threat model"): the
// examples' story runs in organisations A and B; then B, with its secret key and with its
// admin's bearer token, sends every operation of the OpenAPI document that takes an id, each
// request B's own but for one id (path, query or body) that is A's. The answer must be exactly
// the one the same request gets with an id nobody has, A's records must read back unchanged,
// and nothing B can read may carry an id of A's. Operations come from the document: a new id
// parameter or id field without a probe fails the first test.
import { randomUUID } from 'node:crypto';
import { eventually } from '../communications/helpers';
import { api, type ApiResponse } from '../support/api';
import { ENDS_OF_LIFE, FIELD_KINDS, EXTERNAL, operations, PLAN, Story, type Json, type Op, type Slot, type Step } from '../support/examples';
import { createTenant } from '../support/tenants';
import { ACCEPTED, EXTRA, GLOBAL_PARAMS, idFields, NOT_REFERENCES, OWN_IDS, PROBE_BODY, PROBE_USE, QUERY_KINDS, type Patch } from './cross-tenant-plan';

const UNKNOWN_ID = '019a4e1c-0000-7000-8000-00000000dead';
const UNKNOWN_CODE = 'NO-SUCH-CODE-7Q';
const CODE_KINDS = new Set(['contact_codes', 'product_skus', 'tap_codes', 'usernames']);
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

interface Probe {
  op: Op;
  step: Step;
  slot: Slot;
  patch?: Patch;
}

let doc: Json;
let ops: Map<string, Op>;
let a: Story;
let b: Story;
const steps = new Map(PLAN.map(([id, step]) => [id, step ?? {}]));
const probeStep = (id: string): Step => ({ ...steps.get(id), use: { ...steps.get(id)?.use, ...PROBE_USE[id] } });
let fresh = 0;
const before = new Map<string, string>();
/** Ids of A's records (not the catalogues' or the document's example ids, which everyone shares). */
const aIds = new Set<string>();

const send = (op: Op, req: { url: string; body?: unknown }, auth: { key?: string; token?: string }) => api(op.method, req.url, { ...auth, body: req.body });
const json = (res: ApiResponse) => JSON.stringify({ status: res.status, body: res.body });
const unknownOf = (kind: string) => (CODE_KINDS.has(kind) ? UNKNOWN_CODE : UNKNOWN_ID);
/** A code names the story's record whatever spare the step uses for that place's id. */
const valueOf = (s: Story, slot: Slot, step: Step) => (CODE_KINDS.has(slot.kind) ? s.fx[slot.kind] : s.fixture(slot.kind, slot.name, step));

/** The story up to its ends of life, and the few records the probes name that no example keeps. */
async function tell(s: Story, name: 'A' | 'B'): Promise<void> {
  await s.fixtures();
  for (const [id, step = {}] of PLAN.slice(0, ENDS_OF_LIFE)) {
    const { failure } = await s.send(ops.get(id)!, step);
    if (failure) throw new Error(`${name}: ${failure}`);
  }
  for (const [, step] of PLAN.slice(ENDS_OF_LIFE)) await step?.before?.(s);
  const { fx } = s;
  const contact = await s.call('GET', `/contacts/${fx.contacts}`);
  fx.addresses = contact.addresses[0].id;
  fx.emails = contact.emails[0].id;
  fx.taps = (await s.call('GET', `/organisations/${fx.organisations}`)).taps[0].id;
  const [action] = (await s.call('GET', `/automations/${fx.automations}/actions`)).content;
  fx.automation_parameters = action.adaptor_action_parameters[0].id;
  fx.automation_filters = action.action_filters[0].filters[0].id;
  fx.usernames = s.t.admin.username;
  if (name === 'B') Object.assign(fx, { contact_codes: 'C-1001', product_skus: 'ESPRESSO-01', tap_codes: 'CAFE-01-T2' });
  else {
    // Codes B has no record of: B's own story made the example's codes too.
    await s.call('POST', '/contacts', { contact_type: 'PERSON', first_name: 'Only', last_name: 'A', code: 'ONLY-A' });
    await s.call('POST', '/products', { sku: 'ONLY-A-SKU', name: 'Only A' });
    await s.call('POST', '/organisations', { code: 'ONLY-A', name: 'Only A', type: 'MERCHANT', taps: [{ name: 'Till', code: 'ONLY-A-TAP' }] });
    Object.assign(fx, { contact_codes: 'ONLY-A', product_skus: 'ONLY-A-SKU', tap_codes: 'ONLY-A-TAP' });
  }
}

/** Every id B's requests carry, one probe each; code variants where a contact may be named by code. */
function probes(): { list: Probe[]; unmapped: string[] } {
  const list: Probe[] = [];
  const unmapped: string[] = [];
  for (const op of ops.values()) {
    const step = probeStep(op.id);
    const seen: Slot[] = [];
    b.request(op, step, (slot) => (seen.push(slot), b.fixture(slot.kind, slot.name, step)));
    for (const slot of seen.filter((s) => s.in !== 'query')) {
      if (slot.in === 'path' && GLOBAL_PARAMS[`${slot.kind}/{${slot.name}}`]) continue;
      list.push({ op, step, slot });
      if (slot.kind === 'contacts' && (slot.in === 'path' || slot.name === 'contact_id')) list.push({ op, step, slot: { ...slot, kind: 'contact_codes' } });
    }
    for (const p of op.params.filter((p) => p.in === 'path')) {
      const collection = new RegExp(`([^/]+)/\\{${p.name}\\}`).exec(op.path)![1];
      if (!seen.some((s) => s.in === 'path' && s.name === p.name) && !GLOBAL_PARAMS[`${collection}/{${p.name}}`]) unmapped.push(`${op.id} path ${p.name}`);
    }
    for (const p of op.params.filter((p) => p.in === 'query')) {
      const kind = QUERY_KINDS[p.name] ?? (FIELD_KINDS[p.name] === EXTERNAL ? undefined : FIELD_KINDS[p.name]);
      if (kind) list.push({ op, step, slot: { in: 'query', name: p.name, at: p.name, kind } });
      else if (/(^|_)ids?$/.test(p.name)) unmapped.push(`${op.id} query ${p.name}`);
    }
    for (const [, patch, use] of EXTRA.filter(([id]) => id === op.id)) {
      const opStep = use ? { ...step, use: { ...step.use, ...use } } : step;
      markers(patch).forEach((slot) => list.push({ op, step: opStep, slot, patch }));
    }
    const covered = new Set(list.filter((p) => p.op === op && p.slot.in === 'body').map((p) => p.slot.at.replace(/\.\d+/g, '[]')));
    const schema = doc.paths[op.path][op.method.toLowerCase()].requestBody?.content['application/json'].schema;
    for (const field of schema ? idFields(doc, schema) : []) {
      if (!covered.has(field) && !NOT_REFERENCES[`${op.id} ${field}`]) unmapped.push(`${op.id} body ${field}`);
    }
  }
  return { list, unmapped };
}

/** The markers (`@kind`) of a patch, each a body slot. */
function markers(patch: Patch): Slot[] {
  const found: Slot[] = [];
  merge(undefined, patch, (kind, at) => (found.push({ in: 'body', name: at.split('.').filter((k) => !/^\d+$/.test(k)).pop()!, at, kind }), ''));
  return found;
}

/** The patch merged into the body: objects merge, anything else replaces, `undefined` removes. */
function merge(base: unknown, patch: unknown, put: (kind: string, at: string) => string, at = ''): unknown {
  const join = (k: string | number) => (at ? `${at}.${k}` : String(k));
  if (typeof patch === 'string' && patch.startsWith('@')) return put(patch.slice(1), at);
  if (patch === '$fresh') return `PROBE-${++fresh}`;
  if (Array.isArray(patch)) return patch.map((v, i) => merge(undefined, v, put, join(i)));
  if (patch === null || typeof patch !== 'object') return patch;
  const out: Json = base !== null && typeof base === 'object' && !Array.isArray(base) ? { ...base } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = merge(out[k], v, put, join(k));
  }
  return out;
}

/** B's request with `value` in the probe's slot and B's own records everywhere else. */
function requestWith(p: Probe, value: string): { url: string; body?: unknown } {
  const own = (slot: Slot) => b.fixture(slot.kind, slot.name, p.step);
  const hit = (slot: Slot) => slot.in === p.slot.in && (slot.in === 'path' ? slot.name === p.slot.name : !p.patch && slot.at === p.slot.at);
  const req = b.request(p.op, p.step, (slot) => (hit(slot) ? value : own(slot)));
  if (PROBE_BODY[p.op.id]) req.body = merge(req.body, PROBE_BODY[p.op.id], () => '');
  if (p.patch) req.body = merge(req.body, p.patch, (kind, at) => (at === p.slot.at ? value : valueOf(b, { in: 'body', name: at, at, kind }, p.step)));
  if (p.slot.in === 'query') {
    const url = new URL(req.url, 'https://b.invalid');
    url.searchParams.set(p.slot.name, value);
    req.url = url.pathname + url.search;
  }
  return req;
}

/** The answer as B may see it: the probed value and fresh ids blanked, the request id dropped. */
function seen(res: ApiResponse, value: string, statusOnly = false): string {
  if (statusOnly) return String(res.status);
  const body = res.body && typeof res.body === 'object' ? { ...res.body, request_id: undefined } : res.body;
  return JSON.stringify({ status: res.status, body }).split(value).join('<probe>').replace(UUIDS, '<id>');
}

const accepted = (p: Probe) => ACCEPTED.has(`${p.op.id} ${p.slot.at.replace(/\.\d+/g, '[]')}`);

/** What an unknown id in that place must get: 404, or 400 naming the field; a list filter: 200. */
function notFound(p: Probe, res: ApiResponse): boolean {
  if (p.slot.in === 'path') return res.status === 404 && res.body?.code === 'NOT_FOUND';
  if (res.status === 404) return true;
  const field = p.slot.at.split('.')[0];
  if (res.status === 400) return typeof res.body?.attribute === 'string' && res.body.attribute.split('.')[0] === field;
  return (res.status === 200 && p.slot.in === 'query') || (accepted(p) && res.status >= 200 && res.status < 300);
}

/** Every readable operation with the story's records (and collections also without filters). */
async function readAll(s: Story, auth: { key?: string; token?: string }): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const op of ops.values()) {
    if (op.method !== 'GET') continue;
    const req = s.request(op, steps.get(op.id) ?? {});
    out.set(op.id, json(await send(op, req, auth)));
    if (req.url.includes('?')) out.set(`${op.id} unfiltered`, json(await send(op, { ...req, url: req.url.split('?')[0] }, auth)));
  }
  return out;
}

beforeAll(async () => {
  doc = (await api('GET', '/openapi.json')).body;
  ops = operations(doc);
  a = new Story(doc, await createTenant('Cross-tenant A'));
  b = new Story(doc, await createTenant('Cross-tenant B'));
  await Promise.all([tell(a, 'A'), tell(b, 'B')]);
  // Deliveries, sends and report runs the story started settle in the background.
  let last = new Map<string, string>();
  await eventually(async () => {
    const now = await readAll(a, { key: a.t.secretKey });
    const same = [...now].every(([id, text]) => last.get(id) === text && !/"(state|life_cycle_state)":"(PENDING|RUNNING)"/.test(text));
    last = now;
    return same;
  }, 120_000, "A's records to settle");
  for (const [id, text] of last) before.set(id, text);
  const shared = new Set([JSON.stringify(doc), ...['listAdaptors', 'listAutomationEvents', 'listReports'].map((id) => before.get(id) ?? '')].flatMap((text) => text.match(UUIDS) ?? []));
  for (const text of [...before.values(), ...Object.values(a.fx), a.t.organisationId]) for (const id of text.match(UUIDS) ?? []) if (!shared.has(id)) aIds.add(id);
}, 360_000);

test('every id a request can carry has a probe', () => {
  expect(probes().unmapped).toEqual([]);
});

test("B's answers to A's ids are its answers to unknown ids", async () => {
  const failures: string[] = [];
  const auths = { key: { key: b.t.secretKey }, token: { token: b.known.access_token as string } };
  for (const p of probes().list) {
    const mine = valueOf(a, p.slot, p.step);
    const nobody = unknownOf(p.slot.kind);
    for (const [how, auth] of Object.entries(auths)) {
      const theirs = await send(p.op, requestWith(p, mine), auth);
      const unknown = await send(p.op, requestWith(p, nobody), auth);
      const where = `${p.op.id} ${p.slot.in} ${p.slot.at} (${p.slot.kind}, ${how})`;
      const extra = (theirs.text.match(UUIDS) ?? []).filter((x) => aIds.has(x) && x !== mine);
      if (extra.length) failures.push(`${where}: the answer names A's ${extra.join(', ')}: ${theirs.text.slice(0, 200)}`);
      else if (seen(theirs, mine, accepted(p)) !== seen(unknown, nobody, accepted(p))) failures.push(`${where}: A's id ${theirs.status} ${theirs.text.slice(0, 200)} | unknown ${unknown.status} ${unknown.text.slice(0, 200)}`);
      else if (!notFound(p, unknown)) failures.push(`${where}: weak probe, an unknown id gets ${unknown.status} ${unknown.text.slice(0, 200)}`);
    }
  }
  expect(failures).toEqual([]);
}, 600_000);

// An id is a primary key across organisations, so B's create with the id of A's record can only
// be refused: 409 says the id is taken, never whose or what (docs/security.md "Cross-tenant
// probes"); the read-back test below shows A's record untouched.
test("a new record of B's with the id of A's record is refused and names nothing else of A's", async () => {
  const seenAs: string[] = [];
  for (const [id, at, kind, patch] of OWN_IDS) {
    const op = ops.get(id)!;
    const withId = (value: string) => {
      const req = b.request(op, probeStep(id));
      const nested = at.split('.').reduceRight<Json>((inner, key) => ({ [key]: inner }), value as unknown as Json);
      return { ...req, body: merge(merge(req.body, patch, () => ''), nested, () => '') };
    };
    const fresh = await send(op, withId(randomUUID()), { key: b.t.secretKey });
    const theirs = await send(op, withId(a.fx[kind]), { key: b.t.secretKey });
    const named = (theirs.text.match(UUIDS) ?? []).filter((x) => aIds.has(x) && x !== a.fx[kind]);
    seenAs.push(`${id} ${at}: new id ${fresh.status}, A's ${theirs.status} ${theirs.body?.code ?? ''}${named.length ? ` naming ${named.join(', ')}` : ''}`);
  }
  expect(seenAs).toEqual(OWN_IDS.map(([id, at]) => `${id} ${at}: new id ${id === 'submitEvent' ? 201 : 200}, A's 409 ALREADY_EXISTS`));
});

test("A's records read back unchanged", async () => {
  const after = await readAll(a, { key: a.t.secretKey });
  const changed = [...before].filter(([id, text]) => after.get(id) !== text).map(([id, text]) => `${id}: ${text.slice(0, 300)} -> ${after.get(id)?.slice(0, 300)}`);
  expect(changed).toEqual([]);
}, 120_000);

test("nothing B reads carries an id of A's", async () => {
  const leaks: string[] = [];
  for (const auth of [{ key: b.t.secretKey }, { token: b.known.access_token as string }]) {
    for (const [id, text] of await readAll(b, auth)) {
      const found = (text.match(UUIDS) ?? []).filter((x) => aIds.has(x));
      if (found.length) leaks.push(`${id}: ${found.join(', ')}`);
    }
  }
  expect(leaks).toEqual([]);
}, 120_000);
