// Who an Order Provision / Service Request Provision action assigns its entity to
// (docs/assignments.md "Resolving"). The automation runner calls `resolveAssignee` on the
// organisation's client or transaction and records the result on the action's record; an
// assignee that cannot be found is a 409 NO_ASSIGNEE the runner records as a failed action.
import { Prisma, type Tx } from '../../db/client';
import { conflict, found, invalid, notFound } from '../errors';
import { prefixes, normalisePostCode } from './coverage';
import { tenantIdName, userName } from './members';
import type { IdName } from './types';

export type AssignmentAction =
  | 'ASSIGN_SPECIFIC_USER' | 'FULFILLED_BY_SPECIFIC_ORGANISATION' | 'ASSIGN_SPECIFIC_DEPARTMENT'
  | 'FULFILLED_BY_NEAREST_LOCATION' | 'FULFILLED_BY_POST_CODE_COVERAGE' | 'ASSIGN_USER_OF_SPECIFIC_DEPARTMENT'
  | 'ASSIGN_USER_OF_SPECIFIC_USER_ROLE' | 'FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE' | 'FULFILLED_BY_SPECIFIC_USER';

export const ASSIGNMENT_ACTIONS: readonly AssignmentAction[] = [
  'ASSIGN_SPECIFIC_USER', 'FULFILLED_BY_SPECIFIC_ORGANISATION', 'ASSIGN_SPECIFIC_DEPARTMENT',
  'FULFILLED_BY_NEAREST_LOCATION', 'FULFILLED_BY_POST_CODE_COVERAGE', 'ASSIGN_USER_OF_SPECIFIC_DEPARTMENT',
  'ASSIGN_USER_OF_SPECIFIC_USER_ROLE', 'FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE', 'FULFILLED_BY_SPECIFIC_USER',
];

/** What the entity being assigned offers: its postal code and coordinates (either may be absent). */
export interface AssignmentTarget {
  postal_code?: string | null;
  lat?: number | null;
  lon?: number | null;
}

/** What the record shows; null fields omitted by the caller. */
export interface Assignee {
  user?: IdName;
  department?: IdName;
  user_role?: IdName;
  organisation?: IdName;
  location?: { id: string; name: string; lat: number; lon: number; distance_km: number };
  /** The coverage prefix that matched. */
  post_code?: string;
}

export type AssignmentParameter = 'user_id' | 'department_id' | 'user_role_id' | 'organisation_id';
export type AssignmentParams = Partial<Record<AssignmentParameter, string>>;

const PARAMETERS: Record<AssignmentAction, { required: AssignmentParameter[]; optional: AssignmentParameter[] }> = {
  ASSIGN_SPECIFIC_USER: { required: ['user_id'], optional: [] },
  FULFILLED_BY_SPECIFIC_USER: { required: ['user_id'], optional: [] },
  FULFILLED_BY_SPECIFIC_ORGANISATION: { required: ['organisation_id'], optional: [] },
  ASSIGN_SPECIFIC_DEPARTMENT: { required: ['department_id'], optional: [] },
  ASSIGN_USER_OF_SPECIFIC_DEPARTMENT: { required: ['department_id'], optional: [] },
  ASSIGN_USER_OF_SPECIFIC_USER_ROLE: { required: ['user_role_id'], optional: [] },
  FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE: { required: ['user_role_id'], optional: [] },
  // organisation_id: only locations of that unit and the units below it (the tenant id: all).
  FULFILLED_BY_NEAREST_LOCATION: { required: [], optional: ['organisation_id'] },
  FULFILLED_BY_POST_CODE_COVERAGE: { required: [], optional: [] },
};

/** The parameter keys an action needs (required) and accepts (optional), for the automation validator. */
export function assignmentParameters(action: AssignmentAction): { required: AssignmentParameter[]; optional: AssignmentParameter[] } {
  const p = PARAMETERS[action];
  return { required: [...p.required], optional: [...p.optional] };
}

const noAssignee = (why: string) => conflict('NO_ASSIGNEE', `No assignee: ${why}`);

export async function resolveAssignee(
  tx: Tx,
  organisationId: string,
  action: AssignmentAction,
  params: AssignmentParams,
  target: AssignmentTarget,
): Promise<Assignee> {
  const spec = PARAMETERS[action];
  if (!spec) throw invalid('adaptor_action', `adaptor_action: ${String(action)} is not an assignment action`);
  for (const key of spec.required) if (!params[key]) throw invalid(key, `${key}: required by ${action}`);
  switch (action) {
    case 'ASSIGN_SPECIFIC_USER':
    case 'FULFILLED_BY_SPECIFIC_USER':
      return { user: await specificUser(tx, organisationId, params.user_id as string) };
    case 'FULFILLED_BY_SPECIFIC_ORGANISATION':
      return { organisation: await organisationOrUnit(tx, organisationId, params.organisation_id as string) };
    case 'ASSIGN_SPECIFIC_DEPARTMENT': {
      const d = await department(tx, organisationId, params.department_id as string);
      return { department: d.department, organisation: d.organisation };
    }
    case 'ASSIGN_USER_OF_SPECIFIC_DEPARTMENT': {
      const d = await department(tx, organisationId, params.department_id as string);
      const user = await leastBusyMember(tx, organisationId, 'department_members', 'department_id', d.department.id);
      if (!user) throw noAssignee(`department ${d.department.name} has no active member`);
      return { user, department: d.department, organisation: d.organisation };
    }
    case 'ASSIGN_USER_OF_SPECIFIC_USER_ROLE':
    case 'FULFILLED_BY_USER_OF_SPECIFIC_USER_ROLE': {
      const role = await tx.userRole.findFirst({ where: { organisationId, id: params.user_role_id }, select: { id: true, name: true } });
      if (!role) throw notFound('User role', 'user_role_id');
      const user = await leastBusyMember(tx, organisationId, 'user_role_members', 'role_id', role.id);
      if (!user) throw noAssignee(`user role ${role.name} has no active member`);
      return { user, user_role: role };
    }
    case 'FULFILLED_BY_NEAREST_LOCATION':
      return nearestLocation(tx, organisationId, params.organisation_id, target);
    case 'FULFILLED_BY_POST_CODE_COVERAGE':
      return postCodeCoverage(tx, organisationId, target);
  }
}

/** A user of the organisation (400 naming user_id); a disabled one cannot take work. */
async function specificUser(tx: Tx, organisationId: string, id: string): Promise<IdName> {
  const user = await tx.user.findFirst({ where: { organisationId, id }, select: { id: true, username: true, firstName: true, lastName: true, disabledAt: true } });
  if (!user) throw notFound('User', 'user_id');
  if (user.disabledAt) throw noAssignee(`user ${user.username} is disabled`);
  return { id: user.id, name: userName(user) };
}

/** The tenant itself or one of its units; 400 naming organisation_id otherwise. */
async function organisationOrUnit(tx: Tx, organisationId: string, id: string): Promise<IdName> {
  if (id === organisationId) return tenantIdName(tx, organisationId);
  return found(await tx.networkUnit.findFirst({ where: { organisationId, id }, select: { id: true, name: true } }), 'Organisation', 'organisation_id');
}

async function department(tx: Tx, organisationId: string, id: string): Promise<{ department: IdName; organisation: IdName }> {
  const d = await tx.department.findFirst({ where: { organisationId, id }, select: { id: true, name: true, unit: { select: { id: true, name: true } } } });
  if (!d) throw notFound('Department', 'department_id');
  return { department: { id: d.id, name: d.name }, organisation: d.unit ?? (await tenantIdName(tx, organisationId)) };
}

/**
 * The active (not disabled) member with the fewest PENDING activities assigned to them; ties go
 * to the earlier member in the group's order (position), then to the smaller user id.
 */
async function leastBusyMember(
  tx: Tx,
  organisationId: string,
  table: 'department_members' | 'user_role_members',
  groupColumn: 'department_id' | 'role_id',
  groupId: string,
): Promise<IdName | undefined> {
  // Table and column come from the two literals above, never from input.
  const [row] = await tx.$queryRaw<Array<{ id: string; username: string; first_name: string | null; last_name: string | null }>>`
    SELECT u.id::text AS id, u.username, u.first_name, u.last_name
      FROM ${Prisma.raw(table)} m JOIN users u ON u.id = m.user_id AND u.organisation_id = m.organisation_id
     WHERE m.organisation_id = ${organisationId}::uuid AND m.${Prisma.raw(groupColumn)} = ${groupId}::uuid AND u.disabled_at IS NULL
     ORDER BY (SELECT count(*) FROM activities a
                WHERE a.organisation_id = ${organisationId}::uuid AND a.user_id = u.id AND a.life_cycle_state = 'PENDING'),
              m.position, u.id
     LIMIT 1`;
  return row && { id: row.id, name: userName({ username: row.username, firstName: row.first_name, lastName: row.last_name }) };
}

const EARTH_RADIUS_KM = 6371.0088;

const validCoordinate = (lat: unknown, lon: unknown): boolean =>
  typeof lat === 'number' && typeof lon === 'number' && Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/** The location (with lat and lon) nearest to the target by great-circle distance; ties: smaller location id. */
async function nearestLocation(tx: Tx, organisationId: string, unitParam: string | undefined, target: AssignmentTarget): Promise<Assignee> {
  const { lat, lon } = target;
  if (lat == null || lon == null) throw noAssignee('the entity has no lat/lon to find the nearest location from');
  // Never the values: the message is kept in the run's record and its workflow history, and they are the contact's.
  if (!validCoordinate(lat, lon)) throw noAssignee("the entity's lat/lon is not a valid coordinate");
  const root = unitParam === undefined || unitParam === organisationId ? null : (await organisationOrUnit(tx, organisationId, unitParam)).id;
  // The chosen unit and every unit below it (UNION: ends even on data that loops).
  const scope = root
    ? Prisma.sql`AND l.unit_id IN (
        WITH RECURSIVE down(id) AS (
          SELECT id FROM network_units WHERE organisation_id = ${organisationId}::uuid AND id = ${root}::uuid
          UNION
          SELECT c.id FROM network_units c JOIN down ON c.parent_id = down.id WHERE c.organisation_id = ${organisationId}::uuid)
        SELECT id FROM down)`
    : Prisma.empty;
  const [row] = await tx.$queryRaw<Array<{ id: string; name: string; lat: number; lon: number; unit_id: string; unit_name: string; distance_km: number }>>`
    SELECT l.id::text AS id, l.name, l.lat, l.lon, u.id::text AS unit_id, u.name AS unit_name,
           ${EARTH_RADIUS_KM}::float8 * 2 * asin(least(1, sqrt(
             power(sin(radians(l.lat - ${lat}::float8) / 2), 2)
             + cos(radians(${lat}::float8)) * cos(radians(l.lat)) * power(sin(radians(l.lon - ${lon}::float8) / 2), 2)))) AS distance_km
      FROM network_locations l JOIN network_units u ON u.id = l.unit_id
     WHERE l.organisation_id = ${organisationId}::uuid AND l.lat IS NOT NULL AND l.lon IS NOT NULL ${scope}
     ORDER BY distance_km, l.id
     LIMIT 1`;
  if (!row) throw noAssignee(root ? 'no location with lat/lon under the given organisation' : 'no location of the business network has lat/lon');
  return {
    organisation: { id: row.unit_id, name: row.unit_name },
    location: { id: row.id, name: row.name, lat: Number(row.lat), lon: Number(row.lon), distance_km: Math.round(Number(row.distance_km) * 1000) / 1000 },
  };
}

/** The unit whose coverage prefix is the longest prefix of the target's post code; ties: oldest coverage. */
async function postCodeCoverage(tx: Tx, organisationId: string, target: AssignmentTarget): Promise<Assignee> {
  const code = normalisePostCode(target.postal_code ?? '');
  if (!code) throw noAssignee('the entity has no postal code');
  const candidates = await tx.postCodeCoverage.findMany({
    where: { organisationId, postCode: { in: prefixes(code) } },
    select: { postCode: true, unit: { select: { id: true, name: true } } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  // Stable sort: among equally long prefixes the oldest coverage stays first.
  const best = candidates.sort((a, b) => b.postCode.length - a.postCode.length)[0];
  if (!best) throw noAssignee("no unit covers the entity's post code");
  return { organisation: best.unit, post_code: best.postCode };
}
