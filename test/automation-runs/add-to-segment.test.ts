// Add To Segment (issue 33: the automation-action recipe of docs/DEVELOPING.md, followed for a new
// action): a contact who registers joins a STATIC segment, which a communication plan then sends to.
// Real runs over HTTPS; what the database holds is counted in segment_contacts and audit_entries.
import type { Db } from '../../src/db/client';
import { effectRows } from '../automations/helpers';
import { expectError, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { api } from '../support/api';
import { createTenant, type Tenant } from '../support/tenants';
import { automation, caller, eventually, param } from './helpers';

let a: Tenant;
let b: Tenant;
let call: ReturnType<typeof caller>;
let db: Db;

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Segment action A'), createTenant('Segment action B')]);
  call = caller(a.secretKey);
  db = openDatabase();
});

afterAll(async () => {
  await db?.$disconnect();
});

const addTo = (segmentId: string) => ({ adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'ADD_TO_SEGMENT', adaptor_action_parameters: [param('segment_id', segmentId)] });
const staticSegment = async (name: string, key = a.secretKey) => (await caller(key)('POST', '/segments', { name, type: 'STATIC', contact_ids: [] })).id as string;
const person = async (first: string) => (await call('POST', '/contacts', { contact_type: 'PERSON', first_name: first, last_name: 'Segment' })).id as string;
const records = async (automationId: string, action = 'ADD_TO_SEGMENT') =>
  (await call('GET', `/adaptors/AUTOMATIC_CONTENT_UPDATES/actions/${action}/records?automation_id=${automationId}&size=100`)).content as any[];
const recordOf = (automationId: string, contactId: string) =>
  eventually(async () => (await records(automationId)).find((r) => r.entity.id === contactId), 20_000, `the ADD_TO_SEGMENT record of ${contactId}`);
const attributes = (record: any) => Object.fromEntries(record.record_attributes.map((x: any) => [x.key, x.value]));
/** The member rows of the segment for the contact, as the database holds them (0 or 1). */
const memberRows = async (segmentId: string, contactId: string) => {
  const [row] = await db.$queryRawUnsafe<Array<{ n: number }>>(
    'SELECT count(*)::int AS n FROM segment_contacts WHERE organisation_id = $1::uuid AND segment_id = $2::uuid AND contact_id = $3::uuid', a.organisationId, segmentId, contactId,
  );
  return row.n;
};
const deactivate = (automationId: string) => call('PUT', `/automations/${automationId}`, { life_cycle_state: 'INACTIVE' });

test("saving: the segment must be one of the organisation's and STATIC, else 400 naming its value and nothing is stored", async () => {
  const { id: auto } = await call('POST', '/automations', { name: 'Welcome series', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  const save = (segmentId: string) => api('POST', `/automations/${auto}/actions`, { key: a.secretKey, body: { content: [{ order: 1, ...addTo(segmentId) }] } });
  const at = 'content.0.adaptor_action_parameters.0.parameter_from_value';
  const filtered = (await call('POST', '/segments', { name: 'Cypriots', type: 'FILTER', filters: { search_value: 'cy' } })).id;
  const refused = await save(filtered);
  expectError(refused, 400, 'INVALID_REQUEST', at);
  expect(refused.body.message).toMatch(/FILTER segment takes no members/);
  expectError(await save(await staticSegment('Theirs', b.secretKey)), 400, 'INVALID_REQUEST', at);
  expectError(await save(UNKNOWN_ID), 400, 'INVALID_REQUEST', at);
  expectError(await save('not-a-guid'), 400, 'INVALID_REQUEST', at);
  expectError(await api('POST', `/automations/${auto}/actions`, { key: a.secretKey, body: { content: [{ order: 1, ...addTo(filtered), adaptor_action_parameters: [] }] } }), 400, 'INVALID_REQUEST', 'content.0.adaptor_action_parameters');
  expect((await call('GET', `/automations/${auto}/actions`)).content).toEqual([]);

  const own = await staticSegment('Welcome');
  expect((await save(own.toUpperCase())).status).toBe(200);
  expect((await call('GET', `/automations/${auto}/actions`)).content[0].adaptor_action_parameters[0]).toMatchObject({ parameter_key: 'segment_id', parameter_type: 'SEGMENT', parameter_from_value: own });
});

test('a registered contact joins the segment (audited as the automation); a second event for a member writes no second row', async () => {
  const welcome = await staticSegment('Welcome series');
  const onRegister = await automation(call, 'REGISTER_CONTACT', [addTo(welcome)]);
  const onUpdate = await automation(call, 'UPDATE_CONTACT', [addTo(welcome)]);
  try {
    const ann = await person('Ann');
    const joined = await recordOf(onRegister, ann);
    expect(joined).toMatchObject({ status: 'COMPLETED', reason: null });
    expect(attributes(joined)).toEqual({ segment_id: welcome, segment_name: 'Welcome series', already_member: 'false' });
    expect((await call('GET', `/segments/${welcome}`)).contact_count).toBe(1);
    expect((await call('GET', `/segments/${welcome}/contacts`)).content).toEqual([{ id: ann, code: null, name: 'Ann Segment' }]);
    const audits = () => db.$queryRawUnsafe<Array<{ actor_type: string; actor_id: string; changes: unknown }>>(
      "SELECT actor_type, actor_id, changes FROM audit_entries WHERE organisation_id = $1::uuid AND entity_type = 'segment' AND entity_id = $2::uuid AND action = 'ADD_MEMBER'", a.organisationId, welcome,
    );
    expect(await audits()).toEqual([{ actor_type: 'system', actor_id: `automation:${onRegister}`, changes: { contact_id: ann } }]);

    // Already a member: COMPLETED, saying so; still one row and one audit entry.
    await call('PUT', `/contacts/${ann}`, { first_name: 'Anna' });
    const again = await recordOf(onUpdate, ann);
    expect(again).toMatchObject({ status: 'COMPLETED' });
    expect(attributes(again)).toMatchObject({ segment_id: welcome, already_member: 'true' });
    expect(await memberRows(welcome, ann)).toBe(1);
    expect((await call('GET', `/segments/${welcome}`)).contact_count).toBe(1);
    expect(await audits()).toHaveLength(1);
  } finally {
    await deactivate(onRegister);
    await deactivate(onUpdate);
  }
});

test('a segment turned FILTER (or deleted) since the sequence was saved: the record is FAILED saying why, and the run stops there', async () => {
  const later = await staticSegment('Later filtered');
  const auto = await automation(call, 'REGISTER_CONTACT', [
    addTo(later),
    { adaptor: 'AUTOMATIC_CONTENT_UPDATES', adaptor_action: 'UPDATE_CONTENT', adaptor_action_parameters: [param('custom_field_key', 'welcomed'), param('custom_field_value', 'yes')] },
  ]);
  try {
    await call('PUT', `/segments/${later}`, { type: 'FILTER', filters: { code: 'nobody' } });
    const bea = await person('Bea');
    const failed = await recordOf(auto, bea);
    expect(failed.status).toBe('FAILED');
    expect(failed.reason).toMatch(/^SEGMENT_NOT_STATIC: segment_id: a FILTER segment takes no members/);
    const run = await eventually(async () => (await call('GET', `/automations/${auto}/runs`)).content.find((r: any) => r.entity.id === bea && r.state === 'FAILED'), 20_000, 'the failed run');
    expect(run.actions.map((x: any) => [x.adaptor_action, x.status])).toEqual([['ADD_TO_SEGMENT', 'FAILED']]);
    expect(await records(auto, 'UPDATE_CONTENT')).toEqual([]);
    expect(await memberRows(later, bea)).toBe(0);

    // Deleted since: FAILED too, naming the parameter.
    await call('DELETE', `/segments/${later}`);
    const cy = await person('Cy');
    expect(await recordOf(auto, cy)).toMatchObject({ status: 'FAILED', reason: 'INVALID_REQUEST: segment_id: Segment not found' });
  } finally {
    await deactivate(auto);
  }
});

test('an anonymized contact is refused: FAILED CONTACT_ANONYMIZED, no member row', async () => {
  const segment = await staticSegment('After goodbye');
  const auto = await automation(call, 'ANONYMIZE_CONTACT', [addTo(segment)]);
  try {
    const cal = await person('Cal');
    await call('POST', `/contacts/${cal}/anonymize`);
    const failed = await recordOf(auto, cal);
    expect([failed.status, failed.reason]).toEqual(['FAILED', expect.stringMatching(/^CONTACT_ANONYMIZED: /)]);
    expect(await memberRows(segment, cal)).toBe(0);
  } finally {
    await deactivate(auto);
  }
});

test('RECORD simulation: the membership rendered (new, already a member, a FILTER segment WOULD_FAIL), nothing written', async () => {
  const segment = await staticSegment('Simulated');
  const { id: auto } = await call('POST', '/automations', { name: 'Simulated welcome', entity: 'CONTACTS', event: 'REGISTER_CONTACT' });
  await call('POST', `/automations/${auto}/actions`, { content: [{ order: 1, ...addTo(segment) }] });
  const dee = await person('Dee');
  const simulate = async () => (await call('POST', `/automations/${auto}/simulations`, { entity_id: dee })).runs[0].actions[0];

  const before = await effectRows(db, a.organisationId);
  expect(await simulate()).toMatchObject({
    adaptor_action: 'ADD_TO_SEGMENT', verdict: 'WOULD_RUN', reason: null,
    effect: { kind: 'SEGMENT_MEMBERSHIP', contact_id: dee, segment_id: segment, segment_name: 'Simulated', already_member: false },
  });
  expect(await effectRows(db, a.organisationId)).toEqual(before);
  expect(await memberRows(segment, dee)).toBe(0);

  await call('PUT', `/segments/${segment}`, { contact_ids: [dee] });
  expect((await simulate()).effect).toMatchObject({ kind: 'SEGMENT_MEMBERSHIP', already_member: true });
  await call('PUT', `/segments/${segment}`, { type: 'FILTER', filters: {} });
  const refused = await simulate();
  expect([refused.verdict, refused.reason, refused.effect]).toEqual(['WOULD_FAIL', expect.stringMatching(/^SEGMENT_NOT_STATIC: /), null]);
});
