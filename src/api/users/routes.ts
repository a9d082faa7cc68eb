// The organisation's users (docs/assignments.md "Users", docs/security.md "Credentials and
// scopes"): read under reference_data (departments, roles and actions name them), managed by
// admins: create, admin rights, scopes, disable, password, sessions.
import { WRITE_TRANSACTION } from '../../db/transaction';
import { actorOf } from '../../domain/audit';
import { getUser, listUsers, updateUserProfile } from '../../domain/users/directory';
import { hashPassword } from '../../domain/identity/passwords';
import { changeAccess, checkUserGrant, managedUser, type Manager } from '../../domain/users/access';
import { addUser, resetPassword, revokeSessions } from '../../domain/users/users';
import type { AppDeps } from '../deps';
import { resourceRoutes } from '../resource';
import { route, type RequestContext, type RouteDef } from '../route';
import { idParams, idResponse } from '../validation';
import { presentUser, USER_SORT, userFilter } from './present';
import { resetPasswordBody, userCreateBody, userItem, userList, userListQuery, userUpdateBody } from './schemas';

const TAG = 'Users';
const manage = { scope: 'users:write', adminOnly: true } as const;

const manager = (ctx: RequestContext): Manager => ({
  isAdmin: ctx.actor.isAdmin,
  scopes: ctx.actor.scopes,
  userId: ctx.actor.type === 'user' ? ctx.actor.id : undefined,
});

export function userRoutes(deps: AppDeps & { onKeyRevoked: () => void }): RouteDef[] {
  // The authenticator's cache of credentials, users' state included: this replica refuses the
  // ended sessions at once after the commit, others within AUTH_CACHE_SECONDS.
  const evict = async () => deps.onKeyRevoked();
  // The reads are the usual ones; the writes check grants, hash passwords and end sessions.
  return [
    ...resourceRoutes({
      path: '/users', one: 'User', many: 'Users', label: 'user', tag: TAG, auth: { read: { scope: 'reference_data:read' }, write: manage },
      item: userItem, present: presentUser,
      list: {
        summary: "List the organisation's users",
        description: 'With their admin flag, scopes and state. Filters: username (exact), search_value (username, names, e-mail). Sortable by username, created_on (default: newest first). Scope: reference_data:read.',
        query: userListQuery, response: userList, sort: USER_SORT, filter: userFilter, run: listUsers,
      },
      get: { summary: 'Get a user with their departments, user roles and access', run: getUser },
    }),
    route({
      method: 'post', path: '/users', operationId: 'createUser', tag: TAG, auth: manage,
      summary: 'Create a user',
      description:
        'The user signs in with POST /users/login. A credential gives at most what it holds: a scope it lacks is 403 naming scopes.N, scopes left out (all, `*`) 403 naming scopes unless it holds `*`; ' +
        'is_admin: true only from an admin user or a key holding `*` (403 naming is_admin). A username is unique within the organisation (409 ALREADY_EXISTS naming username); users of other organisations never collide with it, so the answer tells nothing about them. ' +
        'The password is never stored, returned or logged (only an argon2id hash). Scope: users:write (admin users only).',
      body: userCreateBody, response: idResponse, errors: [409],
      example: { username: 'ada.lovelace', password: 'correct horse battery', first_name: 'Ada', last_name: 'Lovelace', email: 'ada@shop.test', is_admin: false, scopes: ['contacts:read'] },
      prepare: ({ body }) => hashPassword(body.password),
      handler: async ({ ctx, body, prepared }) => {
        checkUserGrant(manager(ctx), { isAdmin: body.is_admin, scopes: body.scopes }, true);
        const user = await addUser(ctx.db, {
          organisationId: ctx.organisationId, username: body.username, passwordHash: prepared, isAdmin: body.is_admin, scopes: body.scopes,
          email: body.email, firstName: body.first_name, lastName: body.last_name,
        }, actorOf(ctx));
        return { id: user.id };
      },
    }),
    route({
      method: 'put', path: '/users/{id}', operationId: 'updateUser', tag: TAG, auth: manage,
      summary: "Change a user's profile, admin rights, scopes or state",
      description:
        'Partial: only the fields given change; null clears a profile field. A change of is_admin or scopes, and is_disabled: true, end the user\'s sessions. ' +
        'Grants as POST /users (403 naming scopes.N or is_admin); is_admin, scopes, is_disabled and email (where their reports are mailed) of a user who holds more than the credential: 403 naming the field. ' +
        'Your own admin rights, account or users:write: 409 SELF_LOCKOUT; the last enabled admin: 409 LAST_ADMIN. Scope: users:write (admin users only).',
      params: idParams, body: userUpdateBody, response: idResponse, errors: [404, 409],
      example: { email: 'ops@shop.test', first_name: 'Ada', last_name: 'Lovelace', scopes: ['contacts', 'reports:read'] },
      handler: async ({ ctx, params, body }) => {
        const { is_admin: isAdmin, scopes, is_disabled: disabled, email, first_name: firstName, last_name: lastName } = body;
        await changeAccess(ctx.db, actorOf(ctx), manager(ctx), params.id, { isAdmin, scopes, disabled });
        const access = [isAdmin, scopes, disabled].some((v) => v !== undefined);
        const profile = [email, firstName, lastName].some((v) => v !== undefined);
        // Their reports are mailed there (docs/reports.md "Recipient"): as much a right as their password.
        if (email !== undefined) await managedUser(ctx.db, ctx.organisationId, manager(ctx), params.id, 'email');
        if (profile || !access) await updateUserProfile(ctx.db, actorOf(ctx), params.id, { email, firstName, lastName });
        return { id: params.id };
      },
      afterCommit: evict,
    }),
    route({
      method: 'post', path: '/users/{id}/reset_password', operationId: 'resetUserPassword', tag: TAG, auth: manage,
      summary: "Set a user's password",
      description:
        'Ends the user\'s sessions and lifts the sign-in lock of their username. A user who holds more than the credential: 403. ' +
        'The password is never stored, returned or logged. Scope: users:write (admin users only).',
      params: idParams, body: resetPasswordBody, response: idResponse, errors: [404],
      example: { password: 'battery horse staple' },
      prepare: ({ body }) => hashPassword(body.password),
      // The sign-in lock is not organisation data: the unscoped identity client, in one transaction.
      transaction: false,
      handler: async ({ ctx, params, prepared }) => {
        await deps.database.prisma.$transaction(async (tx) => {
          await managedUser(tx, ctx.organisationId, manager(ctx), params.id);
          await resetPassword(tx, actorOf(ctx), { id: params.id }, prepared);
        }, WRITE_TRANSACTION);
        await evict();
        return { id: params.id };
      },
    }),
    route({
      method: 'post', path: '/users/{id}/revoke_sessions', operationId: 'revokeUserSessions', tag: TAG, auth: manage,
      summary: "End a user's sessions",
      description: 'Their refresh tokens are refused at once, their access tokens on this replica at once and on others within AUTH_CACHE_SECONDS. They may sign in again. A user who holds more than the credential: 403. Scope: users:write (admin users only).',
      params: idParams, response: idResponse, errors: [404],
      handler: async ({ ctx, params }) => {
        await managedUser(ctx.db, ctx.organisationId, manager(ctx), params.id);
        await revokeSessions(ctx.db, actorOf(ctx), { id: params.id });
        return { id: params.id };
      },
      afterCommit: evict,
    }),
  ];
}
