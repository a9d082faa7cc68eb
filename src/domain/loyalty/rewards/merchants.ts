// The merchants an account allows automatic spend at (spec 4.4): POST adds (or, for one already
// allowed, updates is_next_visit: the call is idempotent), DELETE takes one away. Every entry is
// checked before the first is written (docs/rewards.md "Allowed merchants").
import type { Tx } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { invalid, notFound } from '../../errors';
import { lockPrimaryAccount, REWARDS_ENTITY } from './account';
import type { MerchantsInput } from './types';

export async function allowMerchants(tx: Tx, actor: AuditActor, accountId: string, input: MerchantsInput): Promise<{ merchants: Array<{ id: string }> }> {
  const { organisationId } = actor;
  await lockPrimaryAccount(tx, organisationId, accountId);
  const ids = input.merchants.map((m) => m.organisation_id);
  const units = new Map(
    (await tx.networkUnit.findMany({ where: { organisationId, id: { in: ids } }, select: { id: true, type: true } })).map((u) => [u.id, u.type]),
  );
  input.merchants.forEach((m, i) => {
    const attribute = `merchants.${i}.organisation_id`;
    const type = units.get(m.organisation_id);
    if (type === undefined) throw notFound('Organisation unit', attribute);
    if (type !== 'MERCHANT') throw invalid(attribute, `${attribute}: the unit is a ${type}, not a MERCHANT`);
  });
  for (const m of input.merchants) {
    await tx.accountMerchant.upsert({
      where: { accountId_unitId: { accountId, unitId: m.organisation_id } },
      create: { organisationId, accountId, unitId: m.organisation_id, isNextVisit: m.is_next_visit ?? false },
      update: m.is_next_visit === undefined ? {} : { isNextVisit: m.is_next_visit },
    });
  }
  await audit(tx, actor, {
    action: 'ALLOW_MERCHANTS', entityType: REWARDS_ENTITY, entityId: accountId,
    changes: { merchants: input.merchants.map((m) => ({ organisation_id: m.organisation_id, is_next_visit: m.is_next_visit ?? null })) },
  });
  return { merchants: ids.map((id) => ({ id })) };
}

export async function disallowMerchant(tx: Tx, actor: AuditActor, accountId: string, merchantId: string): Promise<{ id: string }> {
  const { organisationId } = actor;
  await lockPrimaryAccount(tx, organisationId, accountId);
  const { count } = await tx.accountMerchant.deleteMany({ where: { organisationId, accountId, unitId: merchantId } });
  if (!count) throw notFound('Allowed merchant');
  await audit(tx, actor, { action: 'DISALLOW_MERCHANT', entityType: REWARDS_ENTITY, entityId: accountId, changes: { merchant_id: merchantId } });
  return { id: merchantId };
}
