// Assignment reference data (docs/assignments.md): departments, user roles, post-code coverage,
// and the users they name (src/api/users). What the Order / Service Request Provision actions
// resolve assignees from (src/domain/assignments/resolve.ts).
import { z } from 'zod';
import { contentList, nameCodeQuery } from '../lists';
import { distinctItems, pagingQuery, zId, zRefCode, zRefName } from '../validation';

const description = z.string().trim().max(2000);

/** Members in the order given (their position); each a user of the caller's organisation. */
const userIds = distinctItems(z.array(zId).max(1000))
  .meta({ description: 'Member users in order (the order breaks ties when a member is picked); an unknown one is 400 naming user_ids.N.' });

const organisationId = zId.meta({
  description: 'A unit of the business network (/organisations), or the tenant\'s own id; absent or null: the tenant\'s own.',
});

// The shared fields in this group's order (the document lists them so).
const { code, name, search_value } = nameCodeQuery;
const nameCodeFilters = { code, name, search_value };

export const idName = z.object({ id: z.string(), name: z.string() });

// ---------------------------------------------------------------- departments

export const departmentCreateBody = z.strictObject({
  code: zRefCode.nullish(),
  name: zRefName,
  description: description.nullish(),
  organisation_id: organisationId.nullish(),
  user_ids: userIds.default([]),
});

/** Partial; user_ids given replace the members. */
export const departmentUpdateBody = z.strictObject({
  code: zRefCode.nullish(),
  name: zRefName.optional(),
  description: description.nullish(),
  organisation_id: organisationId.nullish(),
  user_ids: userIds.optional(),
});

export const departmentListQuery = pagingQuery(['name', 'code', 'created_on']).extend({
  ...nameCodeFilters,
  organisation_id: zId.optional().meta({ description: 'Departments of this unit; the tenant id: the tenant\'s own departments.' }),
});

export const departmentItem = z.object({
  id: z.string(),
  code: z.string().nullable(),
  name: z.string(),
  description: z.string().nullable(),
  organisation: idName.meta({ description: 'The unit it belongs to, or the tenant.' }),
  users: z.array(idName).meta({ description: 'Members in order.' }),
  created_on: z.number().int(),
  updated_on: z.number().int(),
});
export const departmentList = contentList(departmentItem);

// ---------------------------------------------------------------- user roles

export const userRoleCreateBody = z.strictObject({
  code: zRefCode.nullish(),
  name: zRefName,
  description: description.nullish(),
  user_ids: userIds.default([]),
});

/** Partial; user_ids given replace the members. */
export const userRoleUpdateBody = z.strictObject({
  code: zRefCode.nullish(),
  name: zRefName.optional(),
  description: description.nullish(),
  user_ids: userIds.optional(),
});

export const userRoleListQuery = pagingQuery(['name', 'code', 'created_on']).extend(nameCodeFilters);

export const userRoleItem = departmentItem.omit({ organisation: true });
export const userRoleList = contentList(userRoleItem);

// ---------------------------------------------------------------- post-code coverage

/** Normalised: upper case, spaces removed; then 1-10 of A-Z, 0-9, "-". */
export const zPostCodePrefix = z
  .string()
  .transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .pipe(z.string().regex(/^[A-Z0-9-]{1,10}$/, 'must be 1-10 letters, digits or "-" (spaces are removed, letters upper-cased)'))
  .meta({ description: 'A post code or its prefix, e.g. "SW1A" or "10": upper-cased, spaces removed; 1-10 of A-Z, 0-9, "-".', pattern: '^\\s*(?:[A-Za-z0-9-]\\s*){1,10}$' });

export const coverageCreateBody = z.strictObject({
  organisation_id: zId.meta({ description: 'The unit of the business network that serves the post codes starting with post_code.' }),
  post_code: zPostCodePrefix,
});

/** Partial. */
export const coverageUpdateBody = z.strictObject({
  organisation_id: zId.optional(),
  post_code: zPostCodePrefix.optional(),
});

export const coverageListQuery = pagingQuery(['post_code', 'created_on']).extend({
  organisation_id: zId.optional().meta({ description: 'Coverage of this unit.' }),
  post_code: z
    .string()
    .min(1)
    .max(40)
    .optional()
    .meta({ description: 'A full post code: the coverages whose prefix it starts with (normalised the same way: upper case, no spaces).' }),
});

export const coverageItem = z.object({
  id: z.string(),
  organisation: idName,
  post_code: z.string(),
  created_on: z.number().int(),
});
export const coverageList = contentList(coverageItem);
