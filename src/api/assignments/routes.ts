// Assignment reference data (docs/assignments.md): departments, user roles and post-code coverage
// in the one shape of reference data (the users they name: ./user-routes.ts). What the Order /
// Service Request Provision automation actions assign to.
import { actorOf } from '../../domain/audit';
import { createCoverage, deleteCoverage, getCoverage, listCoverage, updateCoverage } from '../../domain/assignments/coverage';
import { createDepartment, deleteDepartment, getDepartment, listDepartments, updateDepartment } from '../../domain/assignments/departments';
import { createUserRole, deleteUserRole, getUserRole, listUserRoles, updateUserRole } from '../../domain/assignments/user-roles';
import { contentPage, listArgs } from '../lists';
import { route, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import {
  COVERAGE_SORT,
  coverageFilter,
  departmentFilter,
  NAME_CODE_SORT,
  presentCoverage,
  presentDepartment,
  presentUserRole,
  userRoleFilter,
} from './present';
import {
  coverageCreateBody,
  coverageItem,
  coverageList,
  coverageListQuery,
  coverageUpdateBody,
  departmentCreateBody,
  departmentItem,
  departmentList,
  departmentListQuery,
  departmentUpdateBody,
  userRoleCreateBody,
  userRoleItem,
  userRoleList,
  userRoleListQuery,
  userRoleUpdateBody,
} from './schemas';

const TAG = 'Assignment reference data';
const read = { scope: 'reference_data:read' } as const;
const write = { scope: 'reference_data:write' } as const;
const SOME_ID = '0190f0e4-7b3a-7c1e-9a55-6f2d4c1b2a10';

export function assignmentRoutes(): RouteDef[] {
  return [...departmentRoutes(), ...userRoleRoutes(), ...coverageRoutes()];
}

function departmentRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/departments', operationId: 'createDepartment', tag: TAG, auth: write,
      summary: 'Create a department',
      description: 'organisation_id: a unit of the business network, or absent (or the tenant id) for the tenant\'s own. user_ids: the members in order. Unknown unit or user: 404 naming organisation_id / user_ids.N; a taken code: 409 ALREADY_EXISTS.',
      body: departmentCreateBody, response: idResponse, errors: [404, 409],
      example: { code: 'SUPPORT', name: 'Customer support', description: 'First-line support', organisation_id: SOME_ID, user_ids: [SOME_ID] },
      handler: ({ ctx, body }) => createDepartment(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/departments', operationId: 'listDepartments', tag: TAG, auth: read,
      summary: 'List departments', description: 'Filters: name (contains), code (exact), search_value (name or code), organisation_id. Sortable by name, code, created_on (default: newest first).',
      query: departmentListQuery, response: departmentList,
      handler: async ({ ctx, query }) => {
        const page = await listDepartments(ctx.db, ctx.organisationId, listArgs(query, NAME_CODE_SORT), departmentFilter(query));
        return contentPage(query, page.rows.map(presentDepartment), page.total);
      },
    }),
    route({
      method: 'get', path: '/departments/{id}', operationId: 'getDepartment', tag: TAG, auth: read,
      summary: 'Get a department with its members', params: idParams, response: departmentItem, errors: [404],
      handler: async ({ ctx, params }) => presentDepartment(await getDepartment(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/departments/{id}', operationId: 'updateDepartment', tag: TAG, auth: write,
      summary: 'Update a department',
      description: 'Partial: only the fields given change; null clears code and description, and organisation_id null moves the department to the tenant itself. user_ids given replace the members.',
      params: idParams, body: departmentUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'Support', user_ids: [SOME_ID] },
      handler: async ({ ctx, params, body }) => {
        await updateDepartment(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/departments/{id}', operationId: 'deleteDepartment', tag: TAG, auth: write,
      summary: 'Delete a department', description: 'Its member list goes with it.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteDepartment(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}

function userRoleRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/user_roles', operationId: 'createUserRole', tag: TAG, auth: write,
      summary: 'Create a user role',
      description: 'user_ids: the members in order. An unknown user: 404 naming user_ids.N; a taken code: 409 ALREADY_EXISTS.',
      body: userRoleCreateBody, response: idResponse, errors: [404, 409],
      example: { code: 'TECH', name: 'Field technician', description: 'Installs and repairs', user_ids: [SOME_ID] },
      handler: ({ ctx, body }) => createUserRole(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/user_roles', operationId: 'listUserRoles', tag: TAG, auth: read,
      summary: 'List user roles', description: 'Filters: name (contains), code (exact), search_value (name or code). Sortable by name, code, created_on (default: newest first).',
      query: userRoleListQuery, response: userRoleList,
      handler: async ({ ctx, query }) => {
        const page = await listUserRoles(ctx.db, ctx.organisationId, listArgs(query, NAME_CODE_SORT), userRoleFilter(query));
        return contentPage(query, page.rows.map(presentUserRole), page.total);
      },
    }),
    route({
      method: 'get', path: '/user_roles/{id}', operationId: 'getUserRole', tag: TAG, auth: read,
      summary: 'Get a user role with its members', params: idParams, response: userRoleItem, errors: [404],
      handler: async ({ ctx, params }) => presentUserRole(await getUserRole(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/user_roles/{id}', operationId: 'updateUserRole', tag: TAG, auth: write,
      summary: 'Update a user role',
      description: 'Partial: only the fields given change; null clears code and description. user_ids given replace the members.',
      params: idParams, body: userRoleUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'Technician', user_ids: [SOME_ID] },
      handler: async ({ ctx, params, body }) => {
        await updateUserRole(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/user_roles/{id}', operationId: 'deleteUserRole', tag: TAG, auth: write,
      summary: 'Delete a user role', description: 'Its member list goes with it.',
      params: idParams, response: idResponse, errors: [404, 409],
      handler: async ({ ctx, params }) => {
        await deleteUserRole(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}

function coverageRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/post_code_coverages', operationId: 'createPostCodeCoverage', tag: TAG, auth: write,
      summary: 'Let a unit cover the post codes starting with a prefix',
      description: 'One record per unit and prefix. post_code is upper-cased with spaces removed. An unknown unit (the tenant itself is not one): 404 naming organisation_id; the same unit and prefix again: 409 ALREADY_EXISTS naming post_code.',
      body: coverageCreateBody, response: idResponse, errors: [404, 409],
      example: { organisation_id: SOME_ID, post_code: 'sw1a 1' },
      handler: ({ ctx, body }) => createCoverage(ctx.db, actorOf(ctx), body),
    }),
    route({
      method: 'get', path: '/post_code_coverages', operationId: 'listPostCodeCoverages', tag: TAG, auth: read,
      summary: 'List post-code coverage',
      description: 'Filters: organisation_id (the unit), post_code (a full post code: the coverages whose prefix it starts with). Sortable by post_code, created_on (default: newest first).',
      query: coverageListQuery, response: coverageList,
      handler: async ({ ctx, query }) => {
        const page = await listCoverage(ctx.db, ctx.organisationId, listArgs(query, COVERAGE_SORT), coverageFilter(query));
        return contentPage(query, page.rows.map(presentCoverage), page.total);
      },
    }),
    route({
      method: 'get', path: '/post_code_coverages/{id}', operationId: 'getPostCodeCoverage', tag: TAG, auth: read,
      summary: 'Get a post-code coverage', params: idParams, response: coverageItem, errors: [404],
      handler: async ({ ctx, params }) => presentCoverage(await getCoverage(ctx.db, ctx.organisationId, params.id)),
    }),
    route({
      method: 'put', path: '/post_code_coverages/{id}', operationId: 'updatePostCodeCoverage', tag: TAG, auth: write,
      summary: 'Update a post-code coverage', description: 'Partial: organisation_id and/or post_code.',
      params: idParams, body: coverageUpdateBody, response: idResponse, errors: [404, 409],
      example: { post_code: 'SW1A' },
      handler: async ({ ctx, params, body }) => {
        await updateCoverage(ctx.db, actorOf(ctx), params.id, body);
        return { id: params.id };
      },
    }),
    route({
      method: 'delete', path: '/post_code_coverages/{id}', operationId: 'deletePostCodeCoverage', tag: TAG, auth: write,
      summary: 'Delete a post-code coverage', params: idParams, response: idResponse, errors: [404],
      handler: async ({ ctx, params }) => {
        await deleteCoverage(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    }),
  ];
}
