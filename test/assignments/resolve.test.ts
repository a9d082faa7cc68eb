// The assignment resolver (docs/assignments.md "Resolving"), called directly on the service's
// database through an organisation-scoped client, as the automation runner calls it, over
// reference data seeded through the API.
import type { Db } from '../../src/db/client';
import { scopedClient } from '../../src/db/tenancy';
import { assignmentParameters, resolveAssignee, type AssignmentAction } from '../../src/domain/assignments/resolve';
import { newId } from '../../src/domain/ids';
import { createId, openDatabase, UNKNOWN_ID } from '../money/helpers';
import { createTenant, type Tenant } from '../support/tenants';

let a: Tenant;
let b: Tenant;
let root: Db;
const tag = `${process.pid}-${Date.now().toString(36)}`;
const u: Record<string, string> = {};
const unit: Record<string, string> = {};
let foreignUser: string;
let foreignUnit: string;

const LONDON = { lat: 51.5074, lon: -0.1278 };
const located = (name: string, lat: number, lon: number) => ({ name, lat, lon, postal_code: 'X1' });

/** A user row (the command line is slow and sets no names); the resolver only reads it. */
async function seedUser(t: Tenant, name: string): Promise<string> {
  const id = newId();
  const [firstName, lastName] = name.split(' ');
  await scopedClient(root, t.organisationId).user.create({
    data: { id, organisationId: t.organisationId, username: `${name.replace(' ', '-').toLowerCase()}-${tag}`, passwordHash: 'not a hash', firstName, lastName },
  });
  return id;
}

async function seedActivities(userId: string, pending: number, completed = 0): Promise<void> {
  const states = [...Array(pending).fill('PENDING'), ...Array(completed).fill('COMPLETED')] as string[];
  await scopedClient(root, a.organisationId).activity.createMany({
    data: states.map((lifeCycleState, i) => ({ id: newId(), organisationId: a.organisationId, subject: `Task ${i}`, lifeCycleState, userId })),
  });
}

beforeAll(async () => {
  [a, b] = await Promise.all([createTenant('Resolve A'), createTenant('Resolve B')]);
  root = openDatabase();
  for (const name of ['Ann Busy', 'Ben Calm', 'Cat Calm', 'Dan Gone', 'Eve Free']) u[name.split(' ')[0]] = await seedUser(a, name);
  await scopedClient(root, a.organisationId).user.update({ where: { id: u.Dan }, data: { disabledAt: new Date() } });
  foreignUser = await seedUser(b, 'Foreign User');
  const post = (body: object) => createId(a.secretKey, '/organisations', body);
  unit.bridge = await post({ code: 'R-BRIDGE', name: 'London Bridge', type: 'VENUE', locations: [located('Bridge shop', 51.5079, -0.0877)] });
  unit.oxford = await post({ code: 'R-OXF', name: 'Oxford', type: 'VENUE', locations: [located('Oxford shop', 51.752, -1.2577), { name: 'No coordinates' }] });
  unit.south = await post({ code: 'R-SOUTH', name: 'South', type: 'SUBSIDIARY' });
  unit.brighton = await post({ code: 'R-BRI', name: 'Brighton', type: 'VENUE', parent_id: unit.south, locations: [located('Brighton shop', 50.8225, -0.1372)] });
  unit.bare = await post({ code: 'R-BARE', name: 'Bare', type: 'MERCHANT', locations: [{ name: 'Unmapped' }] });
  foreignUnit = await createId(b.secretKey, '/organisations', { code: 'R-F', name: 'Foreign', type: 'VENUE', locations: [located('Next door', 51.5074, -0.1278)] });
  for (const [unitName, code] of [['oxford', 'SW1'], ['bridge', 'SW1A1'], ['brighton', 'SW1A'], ['south', 'E1'], ['bridge', 'E1']]) {
    await createId(a.secretKey, '/post_code_coverages', { organisation_id: unit[unitName], post_code: code });
  }
  await createId(b.secretKey, '/post_code_coverages', { organisation_id: foreignUnit, post_code: 'N' });
});

afterAll(async () => {
  await root?.$disconnect();
});

const resolve = (action: AssignmentAction, params: Record<string, string> = {}, target = {}, org = () => a.organisationId) =>
  resolveAssignee(scopedClient(root, org()), org(), action, params, target);
const noAssignee = (why: RegExp) => expect.objectContaining({ code: 'NO_ASSIGNEE', status: 409, message: expect.stringMatching(why) });
/** A parameter naming no record of the organisation: 400 naming it. */
const unknownRecord = (attribute: string) => expect.objectContaining({ code: 'INVALID_REQUEST', status: 400, attribute });

/** Great-circle distance, computed here independently of the resolver's SQL. */
function haversineKm(p: { lat: number; lon: number }, q: { lat: number; lon: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h = Math.sin(rad(q.lat - p.lat) / 2) ** 2 + Math.cos(rad(p.lat)) * Math.cos(rad(q.lat)) * Math.sin(rad(q.lon - p.lon) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}

test('specific user, organisation and department: that record; gone or foreign: 400 naming the parameter', async () => {
  for (const action of ['ASSIGN_SPECIFIC_USER', 'FULFILLED_BY_SPECIFIC_USER'] as const) {
    expect(await resolve(action, { user_id: u.Ben })).toEqual({ user: { id: u.Ben, name: 'Ben Calm' } });
    await expect(resolve(action, { user_id: foreignUser })).rejects.toEqual(unknownRecord('user_id'));
    await expect(resolve(action, { user_id: u.Dan })).rejects.toEqual(noAssignee(/disabled/));
  }
  expect(await resolve('FULFILLED_BY_SPECIFIC_ORGANISATION', { organisation_id: unit.oxford })).toEqual({ organisation: { id: unit.oxford, name: 'Oxford' } });
  expect(await resolve('FULFILLED_BY_SPECIFIC_ORGANISATION', { organisation_id: a.organisationId })).toEqual({ organisation: { id: a.organisationId, name: 'Resolve A' } });
  await expect(resolve('FULFILLED_BY_SPECIFIC_ORGANISATION', { organisation_id: foreignUnit })).rejects.toEqual(unknownRecord('organisation_id'));

  const dept = await createId(a.secretKey, '/departments', { name: 'Dispatch', organisation_id: unit.south, user_ids: [u.Ann] });
  expect(await resolve('ASSIGN_SPECIFIC_DEPARTMENT', { department_id: dept })).toEqual({
    department: { id: dept, name: 'Dispatch' }, organisation: { id: unit.south, name: 'South' },
  });
  await expect(resolve('ASSIGN_SPECIFIC_DEPARTMENT', { department_id: UNKNOWN_ID })).rejects.toEqual(unknownRecord('department_id'));
  await expect(resolve('ASSIGN_SPECIFIC_DEPARTMENT', { department_id: dept }, {}, () => b.organisationId)).rejects.toEqual(unknownRecord('department_id'));
  // A required parameter left out is the caller's mistake: 400 naming it.
  await expect(resolve('ASSIGN_SPECIFIC_DEPARTMENT')).rejects.toEqual(expect.objectContaining({ code: 'INVALID_REQUEST', attribute: 'department_id' }));
});

test('user of a department / role: fewest PENDING activities, then member order; disabled members skipped', async () => {
  // Ann 2 pending; Ben 1 pending (completed ones do not count); Cat 1 pending; Eve none but not a member.
  await seedActivities(u.Ann, 2);
  await seedActivities(u.Ben, 1, 3);
  await seedActivities(u.Cat, 1);
  const dept = await createId(a.secretKey, '/departments', { name: 'Field', user_ids: [u.Dan, u.Ann, u.Cat, u.Ben] });
  expect(await resolve('ASSIGN_USER_OF_SPECIFIC_DEPARTMENT', { department_id: dept })).toEqual({
    user: { id: u.Cat, name: 'Cat Calm' }, department: { id: dept, name: 'Field' }, organisation: { id: a.organisationId, name: 'Resolve A' },
  });
  // Another pending activity for Cat: Ben is now the least busy.
  await seedActivities(u.Cat, 1);
  expect((await resolve('ASSIGN_USER_OF_SPECIFIC_DEPARTMENT', { department_id: dept })).user).toEqual({ id: u.Ben, name: 'Ben Calm' });

  const role = await createId(a.secretKey, '/user_roles', { name: 'Installer', user_ids: [u.Ann, u.Eve, u.Ben] });
  for (const action of ['ASSIGN_USER_OF_SPECIFIC_USER_ROLE', 'FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE'] as const) {
    expect(await resolve(action, { user_role_id: role })).toEqual({ user: { id: u.Eve, name: 'Eve Free' }, user_role: { id: role, name: 'Installer' } });
  }
  await expect(resolve('ASSIGN_USER_OF_SPECIFIC_USER_ROLE', { user_role_id: UNKNOWN_ID })).rejects.toEqual(unknownRecord('user_role_id'));

  // Empty, or only disabled members: nobody to assign to.
  const empty = await createId(a.secretKey, '/departments', { name: 'Empty' });
  await expect(resolve('ASSIGN_USER_OF_SPECIFIC_DEPARTMENT', { department_id: empty })).rejects.toEqual(noAssignee(/Empty has no active member/));
  const gone = await createId(a.secretKey, '/user_roles', { name: 'Retired', user_ids: [u.Dan] });
  await expect(resolve('FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE', { user_role_id: gone })).rejects.toEqual(noAssignee(/Retired has no active member/));
});

test('nearest location: great-circle distance, optional unit subtree, the location\'s unit as organisation', async () => {
  const bridge = await resolve('FULFILLED_BY_NEAREST_LOCATION', {}, LONDON);
  expect(bridge).toEqual({
    organisation: { id: unit.bridge, name: 'London Bridge' },
    location: { id: expect.any(String), name: 'Bridge shop', lat: 51.5079, lon: -0.0877, distance_km: expect.any(Number) },
  });
  expect(bridge.location!.distance_km).toBeCloseTo(haversineKm(LONDON, { lat: 51.5079, lon: -0.0877 }), 2);
  expect(bridge.location!.distance_km).toBeGreaterThan(2.7);
  expect(bridge.location!.distance_km).toBeLessThan(2.9);
  // Nearer to Oxford than to London Bridge or Brighton.
  expect((await resolve('FULFILLED_BY_NEAREST_LOCATION', {}, { lat: 51.6, lon: -1.1 })).organisation).toEqual({ id: unit.oxford, name: 'Oxford' });
  // Restricted to South and the units below it: Brighton, although London Bridge is nearer.
  const south = await resolve('FULFILLED_BY_NEAREST_LOCATION', { organisation_id: unit.south }, LONDON);
  expect(south.organisation).toEqual({ id: unit.brighton, name: 'Brighton' });
  expect(south.location!.distance_km).toBeCloseTo(haversineKm(LONDON, { lat: 50.8225, lon: -0.1372 }), 2);
  expect((await resolve('FULFILLED_BY_NEAREST_LOCATION', { organisation_id: a.organisationId }, LONDON)).organisation!.id).toBe(unit.bridge);
  await expect(resolve('FULFILLED_BY_NEAREST_LOCATION', { organisation_id: foreignUnit }, LONDON)).rejects.toEqual(unknownRecord('organisation_id'));

  await expect(resolve('FULFILLED_BY_NEAREST_LOCATION', {}, { postal_code: 'SW1A 1AA' })).rejects.toEqual(noAssignee(/no lat\/lon/));
  await expect(resolve('FULFILLED_BY_NEAREST_LOCATION', {}, { lat: 51.5, lon: null })).rejects.toEqual(noAssignee(/no lat\/lon/));
  await expect(resolve('FULFILLED_BY_NEAREST_LOCATION', {}, { lat: 95, lon: 0 })).rejects.toEqual(noAssignee(/not a valid coordinate/));
  await expect(resolve('FULFILLED_BY_NEAREST_LOCATION', { organisation_id: unit.bare }, LONDON)).rejects.toEqual(noAssignee(/no location/));
  // Another tenant's network is never seen; B's only location is its own.
  expect((await resolve('FULFILLED_BY_NEAREST_LOCATION', {}, LONDON, () => b.organisationId)).organisation!.id).toBe(foreignUnit);
});

test('post-code coverage: the longest matching prefix of the normalised code; ties to the oldest coverage', async () => {
  expect(await resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, { postal_code: 'sw1a 1aa' })).toEqual({ organisation: { id: unit.bridge, name: 'London Bridge' }, post_code: 'SW1A1' });
  expect(await resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, { postal_code: 'SW1A 2AA' })).toEqual({ organisation: { id: unit.brighton, name: 'Brighton' }, post_code: 'SW1A' });
  expect(await resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, { postal_code: 'SW1B' })).toEqual({ organisation: { id: unit.oxford, name: 'Oxford' }, post_code: 'SW1' });
  expect(await resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, { postal_code: 'e1 6an' })).toEqual({ organisation: { id: unit.south, name: 'South' }, post_code: 'E1' });

  await expect(resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, { postal_code: 'N1 9GU' })).rejects.toEqual(noAssignee(/no unit covers the entity's post code/));
  await expect(resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, { postal_code: '  ' })).rejects.toEqual(noAssignee(/no postal code/));
  await expect(resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, LONDON)).rejects.toEqual(noAssignee(/no postal code/));
  expect((await resolve('FULFILLED_BY_POST_CODE_COVERAGE', {}, { postal_code: 'N1 9GU' }, () => b.organisationId)).organisation!.id).toBe(foreignUnit);
});

test('assignmentParameters: what each action needs', () => {
  expect(assignmentParameters('ASSIGN_SPECIFIC_USER')).toEqual({ required: ['user_id'], optional: [] });
  expect(assignmentParameters('ASSIGN_USER_OF_SPECIFIC_DEPARTMENT')).toEqual({ required: ['department_id'], optional: [] });
  expect(assignmentParameters('FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE')).toEqual({ required: ['user_role_id'], optional: [] });
  expect(assignmentParameters('FULFILLED_BY_SPECIFIC_ORGANISATION')).toEqual({ required: ['organisation_id'], optional: [] });
  expect(assignmentParameters('FULFILLED_BY_NEAREST_LOCATION')).toEqual({ required: [], optional: ['organisation_id'] });
  expect(assignmentParameters('FULFILLED_BY_POST_CODE_COVERAGE')).toEqual({ required: [], optional: [] });
});
