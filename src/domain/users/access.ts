// Who may change a user's access through the API (docs/security.md "A credential grants at most
// what it holds"): a credential gives at most what it holds, manages the access of a user only
// when it holds that user's rights itself (else resetting their password would hand it their
// sign-in, and changing their e-mail address their reports), and no change locks its caller or the
// organisation out of user management.
import type { Tx } from '../../db/client';
import type { AuditActor } from '../audit';
import { conflict, forbidden, notFound } from '../errors';
import { canGrant } from '../identity/scopes';
import { changeUser, disableUser, enableUser } from './users';

/** The credential asking. `userId` when it is a user: what it must not do to itself. */
export interface Manager {
  isAdmin: boolean;
  scopes: readonly string[];
  userId?: string;
}

export interface AccessPatch {
  isAdmin?: boolean;
  scopes?: string[];
  disabled?: boolean;
}

interface Holder {
  username: string;
  isAdmin: boolean;
  scopes: string[];
}

/** Admin users may give anything, as with API keys; a key makes admins only when it holds `*`. */
const mayMakeAdmins = (m: Manager) => m.isAdmin || canGrant(m.scopes, '*');

/**
 * What a new or changed user is given: each scope one the manager could grant itself (403 naming
 * `scopes.N`), admin rights only from who may make admins (403 naming `is_admin`). For a new user
 * `scopes` left out means all (`*`), so `leftOutMeansAll` checks that too (403 naming `scopes`).
 */
export function checkUserGrant(m: Manager, wanted: AccessPatch, leftOutMeansAll = false): void {
  if (wanted.isAdmin && !mayMakeAdmins(m)) {
    throw forbidden('is_admin: only an admin user, or a key holding *, makes admins', 'is_admin');
  }
  if (m.isAdmin) return;
  if (wanted.scopes === undefined) {
    if (leftOutMeansAll && !canGrant(m.scopes, '*')) throw forbidden('scopes: left out means all (*), more than this credential holds; list the scopes the user needs', 'scopes');
    return;
  }
  wanted.scopes.forEach((scope, i) => {
    if (!canGrant(m.scopes, scope)) throw forbidden(`scopes.${i}: ${scope} is more than this credential holds; a user gets at most the scopes of who grants them`, `scopes.${i}`);
  });
}

/** The user of the organisation, or 404; 403 naming `attribute` when the manager holds less than they do. */
export async function managedUser(tx: Tx, organisationId: string, m: Manager, id: string, attribute?: string) {
  const user = await tx.user.findFirst({ where: { organisationId, id }, select: { id: true, username: true, isAdmin: true, scopes: true, disabledAt: true } });
  if (!user) throw notFound('User');
  if (!holdsRightsOf(m, user)) {
    const prefix = attribute ? `${attribute}: ` : '';
    throw forbidden(`${prefix}${user.username} holds rights this credential does not; only a credential holding them manages this user's access and e-mail address`, attribute);
  }
  return user;
}

function holdsRightsOf(m: Manager, user: Holder): boolean {
  if (m.isAdmin) return true;
  return user.scopes.every((s) => canGrant(m.scopes, s)) && (!user.isAdmin || mayMakeAdmins(m));
}

/**
 * `is_admin`, `scopes` and `is_disabled` of PUT /users/{id}. A change of rights ends the user's
 * sessions (their tokens carry the old ones); disabling is disableUser, enabling enableUser.
 */
export async function changeAccess(tx: Tx, actor: AuditActor, m: Manager, id: string, patch: AccessPatch): Promise<void> {
  const field = patch.isAdmin !== undefined ? 'is_admin' : patch.scopes !== undefined ? 'scopes' : patch.disabled !== undefined ? 'is_disabled' : undefined;
  if (!field) return;
  checkUserGrant(m, patch);
  const user = await managedUser(tx, actor.organisationId, m, id, field);
  if (m.userId === user.id) refuseSelfLockout(user, patch);
  const demoted = patch.isAdmin === false && user.isAdmin;
  if ((demoted || patch.disabled === true) && user.isAdmin && !user.disabledAt) await keepAnAdmin(tx, actor.organisationId, user.id, demoted ? 'is_admin' : 'is_disabled');

  const scopesChanged = patch.scopes !== undefined && !sameSet(patch.scopes, user.scopes);
  const adminChanged = patch.isAdmin !== undefined && patch.isAdmin !== user.isAdmin;
  if (scopesChanged || adminChanged) {
    const changes = { ...(adminChanged ? { is_admin: patch.isAdmin } : {}), ...(scopesChanged ? { scopes: patch.scopes } : {}) };
    await changeUser(tx, actor, { id }, 'CHANGE_ACCESS', () => ({ isAdmin: patch.isAdmin, scopes: patch.scopes, sessionGeneration: { increment: 1 } }), changes);
  }
  if (patch.disabled === true) await disableUser(tx, actor, { id });
  if (patch.disabled === false) await enableUser(tx, actor, { id });
}

/** A user may not take their own admin rights, their own account or their own users:write. */
function refuseSelfLockout(user: Holder, patch: AccessPatch): void {
  if (patch.isAdmin === false && user.isAdmin) throw conflict('SELF_LOCKOUT', 'is_admin: you cannot take your own admin rights; another admin can', 'is_admin');
  if (patch.disabled === true) throw conflict('SELF_LOCKOUT', 'is_disabled: you cannot disable yourself; another admin can', 'is_disabled');
  if (patch.scopes !== undefined && !canGrant(patch.scopes, 'users:write')) {
    throw conflict('SELF_LOCKOUT', 'scopes: you cannot take users:write from yourself; another admin can', 'scopes');
  }
}

/**
 * The organisation keeps an enabled admin. Its enabled admins are locked first, so two requests
 * demoting the last two admins at once are decided one after the other.
 */
async function keepAnAdmin(tx: Tx, organisationId: string, id: string, attribute: string): Promise<void> {
  const admins = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT id::text AS id FROM users WHERE organisation_id = ${organisationId}::uuid AND is_admin AND disabled_at IS NULL FOR UPDATE`;
  if (!admins.some((a) => a.id !== id)) {
    throw conflict('LAST_ADMIN', `${attribute}: this is the organisation's last enabled admin; make another user an admin first`, attribute);
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));
