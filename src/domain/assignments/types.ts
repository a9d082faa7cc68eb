// The input types of the assignment reference data: the request schemas' outputs.
import type { z } from 'zod';
import type {
  coverageCreateBody,
  coverageUpdateBody,
  departmentCreateBody,
  departmentUpdateBody,
  userRoleCreateBody,
  userRoleUpdateBody,
} from '../../api/assignments/schemas';

export type DepartmentInput = z.output<typeof departmentCreateBody>;
export type DepartmentPatch = z.output<typeof departmentUpdateBody>;
export type UserRoleInput = z.output<typeof userRoleCreateBody>;
export type UserRolePatch = z.output<typeof userRoleUpdateBody>;
export type CoverageInput = z.output<typeof coverageCreateBody>;
export type CoveragePatch = z.output<typeof coverageUpdateBody>;

export interface IdName {
  id: string;
  name: string;
}
