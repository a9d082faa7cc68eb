import type { z } from 'zod';
import type { CoverageFilter, CoverageRecord } from '../../domain/assignments/coverage';
import { normalisePostCode } from '../../domain/assignments/coverage';
import type { DepartmentFilter, DepartmentRecord } from '../../domain/assignments/departments';
import { userName } from '../../domain/assignments/members';
import type { UserRoleRecord } from '../../domain/assignments/user-roles';
import { nameCodeFilter, type SortField } from '../lists';
import { epoch } from '../present';
import type { coverageItem, coverageListQuery, departmentItem, departmentListQuery, userRoleItem } from './schemas';

type Member = { user: { id: string; username: string; firstName: string | null; lastName: string | null } };
const members = (rows: Member[]) => rows.map(({ user }) => ({ id: user.id, name: userName(user) }));

export function presentDepartment(d: DepartmentRecord): z.input<typeof departmentItem> {
  return {
    id: d.id,
    code: d.code,
    name: d.name,
    description: d.description,
    organisation: d.organisation,
    users: members(d.members),
    created_on: epoch(d.createdAt),
    updated_on: epoch(d.updatedAt),
  };
}

export function presentUserRole(r: UserRoleRecord): z.input<typeof userRoleItem> {
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    description: r.description,
    users: members(r.members),
    created_on: epoch(r.createdAt),
    updated_on: epoch(r.updatedAt),
  };
}

export function presentCoverage(c: CoverageRecord): z.input<typeof coverageItem> {
  return { id: c.id, organisation: c.unit, post_code: c.postCode, created_on: epoch(c.createdAt) };
}

export const COVERAGE_SORT: Record<string, SortField> = { post_code: 'postCode', created_on: 'createdAt' };

export const departmentFilter = (q: z.output<typeof departmentListQuery>): DepartmentFilter => ({ ...nameCodeFilter(q), organisationId: q.organisation_id });
export const coverageFilter = (q: z.output<typeof coverageListQuery>): CoverageFilter => ({
  unitId: q.organisation_id,
  postCode: q.post_code === undefined ? undefined : normalisePostCode(q.post_code),
});
