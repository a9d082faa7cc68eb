// Assignment reference data (docs/assignments.md): departments, user roles and post-code coverage
// in the one shape of reference data (the users they name: ./user-routes.ts). What the Order /
// Service Request Provision automation actions assign to.
import { createCoverage, deleteCoverage, getCoverage, listCoverage, updateCoverage } from '../../domain/assignments/coverage';
import { createDepartment, deleteDepartment, getDepartment, listDepartments, updateDepartment } from '../../domain/assignments/departments';
import { createUserRole, deleteUserRole, getUserRole, listUserRoles, updateUserRole } from '../../domain/assignments/user-roles';
import { nameCodeFilter, NAME_CODE_SORT } from '../lists';
import { REFERENCE_AUTH } from '../reference/catalogue-routes';
import { resourceRoutes } from '../resource';
import type { RouteDef } from '../route';
import { SOME_ID } from '../validation';
import { COVERAGE_SORT, coverageFilter, departmentFilter, presentCoverage, presentDepartment, presentUserRole } from './present';
import * as s from './schemas';

const common = { tag: 'Assignment reference data', auth: REFERENCE_AUTH };

export function assignmentRoutes(): RouteDef[] {
  return [
    ...resourceRoutes({
      ...common, path: '/departments', one: 'Department', many: 'Departments', label: 'department',
      item: s.departmentItem, present: presentDepartment,
      create: {
        description: 'organisation_id: a unit of the business network, or absent (or the tenant id) for the tenant\'s own. user_ids: the members in order. Unknown unit or user: 400 naming organisation_id / user_ids.N; a taken code: 409 ALREADY_EXISTS.',
        body: s.departmentCreateBody, run: createDepartment,
        example: { code: 'SUPPORT', name: 'Customer support', description: 'First-line support', organisation_id: SOME_ID, user_ids: [SOME_ID] },
      },
      list: {
        description: 'Filters: name (contains), code (exact), search_value (name or code), organisation_id. Sortable by name, code, created_on (default: newest first).',
        query: s.departmentListQuery, response: s.departmentList, sort: NAME_CODE_SORT, filter: departmentFilter, run: listDepartments,
      },
      get: { summary: 'Get a department with its members', run: getDepartment },
      update: {
        description: 'Partial: only the fields given change; null clears code and description, and organisation_id null moves the department to the tenant itself. user_ids given replace the members.',
        body: s.departmentUpdateBody, run: updateDepartment, example: { name: 'Support', user_ids: [SOME_ID] },
      },
      delete: { description: 'Its member list goes with it.', run: deleteDepartment },
    }),
    ...resourceRoutes({
      ...common, path: '/user_roles', one: 'UserRole', many: 'UserRoles', label: 'user role',
      item: s.userRoleItem, present: presentUserRole,
      create: {
        description: 'user_ids: the members in order. An unknown user: 400 naming user_ids.N; a taken code: 409 ALREADY_EXISTS.',
        body: s.userRoleCreateBody, run: createUserRole,
        example: { code: 'TECH', name: 'Field technician', description: 'Installs and repairs', user_ids: [SOME_ID] },
      },
      list: {
        description: 'Filters: name (contains), code (exact), search_value (name or code). Sortable by name, code, created_on (default: newest first).',
        query: s.userRoleListQuery, response: s.userRoleList, sort: NAME_CODE_SORT, filter: nameCodeFilter, run: listUserRoles,
      },
      get: { summary: 'Get a user role with its members', run: getUserRole },
      update: {
        description: 'Partial: only the fields given change; null clears code and description. user_ids given replace the members.',
        body: s.userRoleUpdateBody, run: updateUserRole, example: { name: 'Technician', user_ids: [SOME_ID] },
      },
      delete: { description: 'Its member list goes with it.', run: deleteUserRole },
    }),
    ...resourceRoutes({
      ...common, path: '/post_code_coverages', one: 'PostCodeCoverage', many: 'PostCodeCoverages', label: 'post-code coverage',
      item: s.coverageItem, present: presentCoverage,
      create: {
        summary: 'Let a unit cover the post codes starting with a prefix',
        description: 'One record per unit and prefix. post_code is upper-cased with spaces removed. An unknown unit (the tenant itself is not one): 400 naming organisation_id; the same unit and prefix again: 409 ALREADY_EXISTS naming post_code.',
        body: s.coverageCreateBody, run: createCoverage, example: { organisation_id: SOME_ID, post_code: 'sw1a 1' },
      },
      list: {
        summary: 'List post-code coverage',
        description: 'Filters: organisation_id (the unit), post_code (a full post code: the coverages whose prefix it starts with). Sortable by post_code, created_on (default: newest first).',
        query: s.coverageListQuery, response: s.coverageList, sort: COVERAGE_SORT, filter: coverageFilter, run: listCoverage,
      },
      get: { run: getCoverage },
      update: { description: 'Partial: organisation_id and/or post_code.', body: s.coverageUpdateBody, run: updateCoverage, example: { post_code: 'SW1A' } },
      delete: { errors: [404], run: deleteCoverage },
    }),
  ];
}
