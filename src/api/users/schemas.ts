// The organisation's users (docs/assignments.md "Users", docs/security.md "Credentials and
// scopes"): what departments and user roles name, and what admins manage.
import { z } from 'zod';
import { PASSWORD_LENGTH, passwordProblem } from '../../domain/identity/passwords';
import { idName } from '../assignments/schemas';
import { zGrants } from '../identity/schemas';
import { contentList } from '../lists';
import { pagingQuery, zBool, zEmail } from '../validation';

export const userListQuery = pagingQuery(['username', 'created_on']).extend({
  username: z.string().min(1).max(200).optional().meta({ description: 'Exact username.' }),
  search_value: z.string().min(1).max(200).optional().meta({ description: 'Case-insensitive text within the username, first or last name or e-mail.' }),
});

const email = zEmail
  .meta({ description: 'Where reports the user runs (or runs with a key they created) are mailed.' });
const personName = z.string().trim().min(1).max(100);
const zPassword = z.string().superRefine((v, ctx) => {
  const problem = passwordProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
}).meta({ minLength: PASSWORD_LENGTH.min, maxLength: PASSWORD_LENGTH.max, description: `${PASSWORD_LENGTH.min}-${PASSWORD_LENGTH.max} characters. Only an argon2id hash is stored; it is never returned or logged.` });
const isAdmin = zBool.meta({ description: 'Whether the user may manage API keys and users (with the scopes for them). Only an admin user, or a key holding `*`, makes admins (403 naming is_admin).' });
const scopes = zGrants.meta({
  description: '`*`, a group (read and write) or `<group>:read` / `<group>:write`: what the user\'s tokens may do. At most the scopes of the credential granting them (admin users may grant any): else 403 naming scopes.N.',
});

export const userCreateBody = z.strictObject({
  username: z.string().trim().min(1).max(200).regex(/^\S+$/, 'must not contain spaces')
    .meta({ description: 'What the user signs in with; unique across the service (409 ALREADY_EXISTS naming username).' }),
  password: zPassword,
  first_name: personName.optional(),
  last_name: personName.optional(),
  email: email.optional(),
  is_admin: isAdmin.default(false),
  scopes: scopes.optional().meta({ description: 'Default: all (`*`), which only a credential holding `*` (or an admin user) may give (403 naming scopes).' }),
});

/** Partial; null clears the profile fields. */
export const userUpdateBody = z.strictObject({
  email: email.nullable().optional(),
  first_name: personName.nullable().optional(),
  last_name: personName.nullable().optional(),
  is_admin: isAdmin.optional(),
  scopes: scopes.optional().meta({ description: 'Replaces the user\'s scopes; a change ends their sessions.' }),
  is_disabled: zBool.optional().meta({ description: 'true: the user can no longer sign in and their sessions end; false: they may sign in again (ended sessions stay ended).' }),
});

export const resetPasswordBody = z.strictObject({ password: zPassword });

export const userItem = z.object({
  id: z.string(),
  username: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  email: z.string().nullable(),
  name: z.string().meta({ description: 'First and last name, or the username when neither is set.' }),
  is_admin: z.boolean(),
  scopes: z.array(z.string()).meta({ description: 'What the user\'s tokens may do: `*`, groups or `<group>:read` / `<group>:write`.' }),
  is_disabled: z.boolean(),
  disabled_on: z.number().int().nullable().meta({ description: 'When the user was disabled; null while they may sign in.' }),
  created_on: z.number().int(),
  departments: z.array(idName),
  user_roles: z.array(idName),
});
export const userList = contentList(userItem);
