import type { ApiKey, Tx } from '../../db/client';
import type { ListArgs, ListPage } from '../lists';
import { newId } from '../ids';
import { forbidden, invalid, notFound } from '../errors';
import { ALL_SCOPES, canGrant, PUBLIC_KEY_SCOPES } from './scopes';
import { newSecret, sha256 } from './tokens';

export type ApiKeyKind = 'SECRET' | 'PUBLIC';

const PREFIX: Record<ApiKeyKind, string> = { SECRET: 'sk_', PUBLIC: 'pk_' };

/** Whether a value has the shape of one of this service's API keys (its prefix), known or not. */
export function looksLikeApiKey(value: string): boolean {
  return Object.values(PREFIX).some((prefix) => value.startsWith(prefix));
}

export interface NewApiKey {
  organisationId: string;
  kind: ApiKeyKind;
  name: string;
  scopes?: string[];
  expiresAt?: Date | null;
  rateLimitPerSecond?: number | null;
  createdBy?: string;
}

/** Who asks for a key through the API (the admin command line is the operator: no check). */
export interface Grantor {
  isAdmin: boolean;
  scopes: readonly string[];
}

/**
 * A key gets at most its creator's scopes (admin users: any), so `api_keys:write` alone cannot
 * mint a wider key. Left out, scopes mean all (`*`), which only a `*` holder may grant. A public
 * key reads and writes communications (spec 4.7), so it needs the `communications` group; it may
 * be given less (`communications:read` or `:write` alone), never more.
 */
export function checkGrant(grantor: Grantor, kind: ApiKeyKind, scopes: readonly string[] | undefined): void {
  if (kind === 'PUBLIC') {
    scopes?.forEach((scope, i) => {
      if (!canGrant(PUBLIC_KEY_SCOPES, scope)) throw invalid(`scopes.${i}`, `${scope}: a public key holds at most ${PUBLIC_KEY_SCOPES.join(' and ')} (spec 4.7)`);
    });
  }
  if (grantor.isAdmin) return;
  if (kind === 'PUBLIC') {
    for (const scope of scopes ?? ['communications']) {
      if (!canGrant(grantor.scopes, scope)) {
        throw forbidden(`type: a public key reads and writes communications; creating one needs ${scope}`, 'type');
      }
    }
    return;
  }
  if (scopes === undefined) {
    if (!canGrant(grantor.scopes, '*')) throw forbidden('scopes: left out means all (*), more than this credential holds; list the scopes the key needs', 'scopes');
    return;
  }
  scopes.forEach((scope, i) => {
    if (!canGrant(grantor.scopes, scope)) {
      throw forbidden(`scopes.${i}: ${scope} is more than this credential holds; a new key gets at most its creator's scopes`, `scopes.${i}`);
    }
  });
}

/** Creates a key and returns it with its secret: the only time the secret is ever visible. */
export async function createApiKey(db: Tx, input: NewApiKey) {
  const secret = newSecret(PREFIX[input.kind]);
  const row = await db.apiKey.create({
    data: {
      id: newId(),
      organisationId: input.organisationId,
      kind: input.kind,
      name: input.name,
      keyHash: sha256(secret),
      keyPrefix: secret.slice(0, 10),
      // A public key's [] is the whole of PUBLIC_KEY_SCOPES (how every public key was stored before
      // they could hold less); a list narrows it.
      scopes: input.kind === 'PUBLIC' ? [...(input.scopes ?? [])] : (input.scopes ?? ALL_SCOPES),
      expiresAt: input.expiresAt ?? null,
      rateLimitPerSecond: input.rateLimitPerSecond ?? null,
      createdBy: input.createdBy,
    },
  });
  return { row, secret };
}

export async function listApiKeys(db: Tx, organisationId: string, args: ListArgs): Promise<ListPage<ApiKey>> {
  const where = { organisationId };
  const [rows, total] = await Promise.all([db.apiKey.findMany({ where, ...args }), db.apiKey.count({ where })]);
  return { rows, total };
}

/**
 * Only a credential holding at least a key's rights revokes it (admin users: any), as for users:
 * otherwise `api_keys:write` alone revokes the organisation's `*` key. A public key's rights are
 * the `communications` group (what creating one takes).
 */
export async function revokeApiKey(db: Tx, organisationId: string, grantor: Grantor, id: string) {
  const key = await db.apiKey.findFirst({ where: { id, organisationId }, select: { name: true, kind: true, keyPrefix: true, scopes: true } });
  if (!key) throw notFound('API key');
  const held = grantor.isAdmin || (key.kind === 'PUBLIC' ? canGrant(grantor.scopes, 'communications') : key.scopes.every((s) => canGrant(grantor.scopes, s)));
  if (!held) throw forbidden(`The key ${key.name} (${key.keyPrefix}...) holds rights this credential does not; only a credential holding them revokes it`);
  // A key already revoked keeps its first revocation time.
  await db.apiKey.updateMany({ where: { id, organisationId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** The key row for a presented secret if it is usable now, else null. */
export async function findUsableApiKey(db: Tx, secret: string) {
  const row = await db.apiKey.findUnique({ where: { keyHash: sha256(secret) } });
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= new Date())) return null;
  return row;
}
