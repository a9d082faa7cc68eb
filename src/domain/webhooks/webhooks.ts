// Webhooks (spec 2.9, 4.6; docs/webhooks.md): where and how requests go, the credentials of
// url_auth (write-only), and the signing secret with its rotation.
import type { z } from 'zod';
import type { rotateSecretBody, webhookCreateBody, webhookUpdateBody } from '../../api/webhooks/schemas';
import type { Prisma, Tx, Webhook } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { nowSeconds } from '../clock';
import { found, invalid } from '../errors';
import { newId } from '../ids';
import { searchWhere, within, type ListArgs, type ListPage } from '../lists';
import { checkHttpUrl, OutboundRefused, type OutboundConfig } from '../../outbound';
import { openWebhook, sealWebhook, withOpenSecret } from './sealed';
import { newSecret } from './signing';

export type WebhookInput = z.output<typeof webhookCreateBody>;
export type WebhookPatch = z.output<typeof webhookUpdateBody>;
export type RotateInput = z.output<typeof rotateSecretBody>;
type UrlAuth = WebhookInput['url_auth'];

export interface RequestCounts {
  pending: number;
  success: number;
  failed: number;
}
export type WebhookRecord = Webhook & { counts: RequestCounts };

export interface WebhookFilter {
  searchValue?: string;
  name?: string;
  urlEndpoint?: string;
}

const ENTITY = 'webhook';
const DAY_MS = 24 * 3600 * 1000;
const MAX_OVERLAP_MS = 30 * DAY_MS;

/**
 * The url_endpoint judged by the outbound gateway (DNS included): run before the write's
 * transaction, as the route's `prepare`. 400 naming url_endpoint.
 */
export async function checkWebhookEndpoint(config: OutboundConfig, url: string): Promise<void> {
  try {
    await checkHttpUrl(config, url);
  } catch (err) {
    if (err instanceof OutboundRefused) throw invalid('url_endpoint', `url_endpoint: ${err.message}`);
    throw err;
  }
}

export async function createWebhook(tx: Tx, actor: AuditActor, input: WebhookInput): Promise<{ id: string; secret: string }> {
  const id = newId();
  const secret = newSecret();
  await tx.webhook.create({
    data: sealWebhook(id, {
      id,
      organisationId: actor.organisationId,
      name: input.name,
      method: input.method,
      urlEndpoint: input.url_endpoint,
      urlAuth: input.url_auth,
      ...credentials(input.url_auth, input, null),
      secret,
      secretActiveUntil: futureDate(input.secret_key_active_until, 'secret_key_active_until') ?? null,
    }),
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input) } });
  return { id, secret };
}

/**
 * Partial; the credentials of the resulting url_auth must be complete. A new url_endpoint, or a
 * new username beside a stored password, needs the stored password or api_key given again: kept,
 * it would go to whoever the url now names, or be presented for someone else (docs/security.md
 * "Rights follow what a change reaches").
 */
export async function updateWebhook(tx: Tx, actor: AuditActor, id: string, patch: WebhookPatch): Promise<void> {
  const current = openWebhook(await lockWebhook(tx, actor.organisationId, id));
  const urlAuth = patch.url_auth ?? (current.urlAuth as UrlAuth);
  const changed =
    patch.url_endpoint != null && patch.url_endpoint !== current.urlEndpoint ? 'url_endpoint' : urlAuth === 'USERNAME_PASSWORD' && patch.username != null && patch.username !== current.username ? 'username' : undefined;
  if (changed && urlAuth === current.urlAuth) {
    for (const [field, stored] of [['password', current.password], ['api_key', current.apiKey]] as const) {
      if (stored != null && patch[field] == null) {
        throw invalid(field, `${field}: required when ${changed} changes; the stored one is never sent to another target or in another way`);
      }
    }
  }
  await tx.webhook.update({
    where: { id },
    data: sealWebhook(id, {
      name: patch.name,
      urlEndpoint: patch.url_endpoint,
      urlAuth,
      ...credentials(urlAuth, patch, current),
      secretActiveUntil: patch.secret_key_active_until === null ? null : futureDate(patch.secret_key_active_until, 'secret_key_active_until'),
    }),
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

/** Its requests stay, keeping its name (webhook_id becomes null); a PENDING one fails at its next attempt. */
export async function deleteWebhook(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getWebhookRow(tx, actor.organisationId, id);
  await tx.webhook.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { name: current.name } });
}

/**
 * A new secret; the old one keeps signing until `previous_secret_active_until` (default 24 h,
 * at most 30 days; never beyond its own end date).
 */
export async function rotateWebhookSecret(tx: Tx, actor: AuditActor, id: string, input: RotateInput): Promise<{ id: string; secret: string }> {
  const current = openWebhook(await lockWebhook(tx, actor.organisationId, id));
  // Whole seconds: the default end is then exactly the epoch the webhook's read states.
  const now = nowSeconds().getTime();
  const given = input.previous_secret_active_until;
  const until = given === undefined ? new Date(now + DAY_MS) : futureDate(given, 'previous_secret_active_until')!;
  if (until.getTime() > now + MAX_OVERLAP_MS) throw invalid('previous_secret_active_until', 'previous_secret_active_until: at most 30 days from now');
  const ownEnd = current.secretActiveUntil;
  const secret = newSecret();
  await tx.webhook.update({
    where: { id },
    data: sealWebhook(id, { secret, secretActiveUntil: null, previousSecret: current.secret, previousSecretActiveUntil: ownEnd && ownEnd < until ? ownEnd : until }),
  });
  await audit(tx, actor, { action: 'ROTATE_SECRET', entityType: ENTITY, entityId: id });
  return { id, secret };
}

export async function getWebhook(tx: Tx, organisationId: string, id: string): Promise<WebhookRecord> {
  const row = await getWebhookRow(tx, organisationId, id);
  const counts = await requestCounts(tx, organisationId, [id]);
  return { ...withOpenSecret(row), counts: counts.get(id) ?? zero() };
}

export async function listWebhooks(tx: Tx, organisationId: string, args: ListArgs, q: WebhookFilter): Promise<ListPage<WebhookRecord>> {
  const where: Prisma.WebhookWhereInput = { organisationId, ...searchWhere(['name', 'urlEndpoint'], q.searchValue) };
  if (q.name !== undefined) where.name = within(q.name);
  if (q.urlEndpoint !== undefined) where.urlEndpoint = within(q.urlEndpoint);
  const [rows, total] = await Promise.all([tx.webhook.findMany({ where, ...args }), tx.webhook.count({ where })]);
  const counts = await requestCounts(tx, organisationId, rows.map((r) => r.id));
  return { rows: rows.map((r) => ({ ...r, counts: counts.get(r.id) ?? zero() })), total };
}

/** The webhook, or 404 (400 naming `attribute` when a body field named it; also for another organisation's id). */
export async function getWebhookRow(tx: Tx, organisationId: string, id: string, attribute?: string): Promise<Webhook> {
  return found(await tx.webhook.findFirst({ where: { organisationId, id } }), 'Webhook', attribute);
}

async function lockWebhook(tx: Tx, organisationId: string, id: string): Promise<Webhook> {
  await tx.$queryRaw`SELECT id FROM webhooks WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  return getWebhookRow(tx, organisationId, id);
}

const zero = (): RequestCounts => ({ pending: 0, success: 0, failed: 0 });

/** Requests per webhook and state, in one grouped statement. */
async function requestCounts(tx: Tx, organisationId: string, ids: string[]): Promise<Map<string, RequestCounts>> {
  const out = new Map<string, RequestCounts>();
  if (!ids.length) return out;
  const groups = await tx.webhookRequest.groupBy({ by: ['webhookId', 'state'], where: { organisationId, webhookId: { in: ids } }, _count: { _all: true } });
  for (const g of groups) {
    const c = out.get(g.webhookId!) ?? zero();
    const n = g._count._all;
    if (g.state === 'PENDING') c.pending += n;
    else if (g.state === 'SUCCESS') c.success += n;
    else c.failed += n;
    out.set(g.webhookId!, c);
  }
  return out;
}

type GivenCredentials = { username?: string | null; password?: string | null; api_key?: string | null };

/**
 * The stored credentials for `urlAuth`: given ones, else the stored ones of the same kind.
 * A credential of another kind is 400 naming it; a missing one of the kind is 400 naming it.
 */
function credentials(urlAuth: UrlAuth, given: GivenCredentials, current: Webhook | null) {
  const allowed: Array<keyof GivenCredentials> = urlAuth === 'USERNAME_PASSWORD' ? ['username', 'password'] : urlAuth === 'API_KEY' ? ['api_key'] : [];
  for (const field of ['username', 'password', 'api_key'] as const) {
    if (given[field] != null && !allowed.includes(field)) throw invalid(field, `${field}: not used with url_auth ${urlAuth}`);
  }
  const kept = current && current.urlAuth === urlAuth ? current : null;
  const value = (field: keyof GivenCredentials, stored: string | null | undefined) => {
    if (!allowed.includes(field)) return null;
    const v = given[field] ?? stored ?? null;
    if (v === null) throw invalid(field, `${field}: required with url_auth ${urlAuth}`);
    return v;
  };
  return { username: value('username', kept?.username), password: value('password', kept?.password), apiKey: value('api_key', kept?.apiKey) };
}

/** An epoch in the future as a Date (undefined stays undefined); 400 naming the field when not future. */
function futureDate(epochSeconds: number | null | undefined, attribute: string): Date | undefined {
  if (epochSeconds == null) return undefined;
  const d = new Date(epochSeconds * 1000);
  if (d.getTime() <= Date.now()) throw invalid(attribute, `${attribute}: must be in the future`);
  return d;
}
