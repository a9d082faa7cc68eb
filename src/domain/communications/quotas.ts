// Sending quotas and the public plans' floor (docs/communications.md "Quotas"). Every
// communication counts against its channel's hourly quota, whoever sent it; those sent with a
// public key also count against the smaller quota of public keys. A public key sits in client
// code, so these numbers are what a stranger holding it can send at most.
import type { Tx } from '../../db/client';
import { AppError } from '../errors';
import type { AuditActor } from '../audit';
import { audit } from '../audit';
import { CHANNELS, type Channel } from './integration-settings';

export interface ChannelQuota {
  channel: Channel;
  per_hour: number;
  public_key_per_hour: number;
}

export interface CommunicationLimits {
  quotas: ChannelQuota[];
  public_plan_min_interval_minutes: number;
}

export const DEFAULT_QUOTAS: Record<Channel, Omit<ChannelQuota, 'channel'>> = {
  EMAIL: { per_hour: 5000, public_key_per_hour: 100 },
  SMS: { per_hour: 500, public_key_per_hour: 20 },
  INAPP: { per_hour: 20000, public_key_per_hour: 1000 },
};

/** A plan a public key writes ticks at most once a day, unless an admin lowers this. */
export const DEFAULT_PUBLIC_PLAN_MIN_INTERVAL_MINUTES = 1440;

const HOUR_MS = 3_600_000;

/** Why a communication is refused or skipped for its quota: the failure_reason's prefix too. */
export const QUOTA_REASON = 'quota:';

export async function getLimits(tx: Tx, organisationId: string): Promise<CommunicationLimits> {
  const row = await tx.communicationLimit.findFirst({ where: { organisationId } });
  const stored = (row?.quotas ?? []) as unknown as ChannelQuota[];
  return {
    quotas: CHANNELS.map((channel) => ({ channel, ...DEFAULT_QUOTAS[channel], ...stored.find((q) => q.channel === channel) })),
    public_plan_min_interval_minutes: row?.publicPlanMinIntervalMinutes ?? DEFAULT_PUBLIC_PLAN_MIN_INTERVAL_MINUTES,
  };
}

export interface LimitsPatch {
  quotas?: ChannelQuota[];
  public_plan_min_interval_minutes?: number;
}

/** Partial: the channels given replace theirs, the others keep what they had. */
export async function updateLimits(tx: Tx, actor: AuditActor, patch: LimitsPatch): Promise<CommunicationLimits> {
  const { organisationId } = actor;
  const current = await getLimits(tx, organisationId);
  const quotas = current.quotas.map((q) => patch.quotas?.find((p) => p.channel === q.channel) ?? q);
  const minutes = patch.public_plan_min_interval_minutes ?? current.public_plan_min_interval_minutes;
  const data = { quotas: quotas as unknown as object, publicPlanMinIntervalMinutes: minutes };
  await tx.communicationLimit.upsert({ where: { organisationId }, create: { organisationId, ...data }, update: data });
  await audit(tx, actor, { action: 'UPDATE', entityType: 'communication_limits', entityId: organisationId, changes: { quotas, public_plan_min_interval_minutes: minutes } });
  return { quotas, public_plan_min_interval_minutes: minutes };
}

export interface QuotaState {
  /** How many more may be written now (0: none). */
  remaining: number;
  /** Seconds until the oldest counted one leaves the hour. */
  retryAfter: number;
  limit: number;
  /** Which quota binds: the channel's, or the public keys' share of it. */
  kind: 'channel' | 'public key';
}

/**
 * What the hour's quota leaves for `channel`, taking a lock per organisation and channel until
 * the transaction ends, so parallel sends cannot all take the last place.
 */
export async function quotaState(tx: Tx, organisationId: string, channel: Channel, publicKey: boolean): Promise<QuotaState> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${organisationId} || ':quota:' || ${channel}, 0))`;
  const quota = (await getLimits(tx, organisationId)).quotas.find((q) => q.channel === channel)!;
  const since = new Date(Date.now() - HOUR_MS);
  // Skipped for the quota (FAILED, quota:) is not sent, so it takes no place.
  const counted = { organisationId, channel, createdAt: { gt: since }, OR: [{ failureReason: null }, { NOT: { failureReason: { startsWith: QUOTA_REASON } } }] };
  const states: QuotaState[] = [];
  for (const [kind, limit, where] of [
    ['channel', quota.per_hour, counted],
    ...(publicKey ? [['public key', quota.public_key_per_hour, { ...counted, publicKeyId: { not: null } }] as const] : []),
  ] as const) {
    const agg = await tx.communication.aggregate({ where, _count: { _all: true }, _min: { createdAt: true } });
    const used = agg._count._all;
    const oldest = agg._min.createdAt?.getTime() ?? Date.now();
    states.push({ kind, limit, remaining: Math.max(0, limit - used), retryAfter: Math.max(1, Math.ceil((oldest + HOUR_MS - Date.now()) / 1000)) });
  }
  return states.reduce((a, b) => (b.remaining < a.remaining ? b : a));
}

export const quotaMessage = (channel: Channel, s: QuotaState) =>
  `${QUOTA_REASON} the organisation's ${s.kind === 'public key' ? 'public-key ' : ''}quota of ${s.limit} ${channel} communications per hour is used up`;

/** One more communication of `channel`, or 429 QUOTA_EXCEEDED with Retry-After. */
export async function takeQuota(tx: Tx, organisationId: string, channel: Channel, publicKey: boolean): Promise<void> {
  const state = await quotaState(tx, organisationId, channel, publicKey);
  if (state.remaining > 0) return;
  throw Object.assign(new AppError('QUOTA_EXCEEDED', quotaMessage(channel, state), 'channel'), { retryAfter: state.retryAfter });
}
