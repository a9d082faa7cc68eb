// Merchant creatives (spec 2.13 `creatives[]`, docs/rewards.md "Creatives"): images of a unit of
// type MERCHANT, kept as URLs the service stores and never fetches. GET /merchants answers each
// merchant's creatives (src/domain/loyalty/rewards/merchant-list.ts); this file keeps the list.
import type { MerchantCreative, Prisma, Tx } from '../../db/client';
import { audit, type AuditActor } from '../audit';
import { found } from '../errors';
import { newId } from '../ids';
import { pageOf, type ListArgs, type ListPage } from '../lists';
import { checkMerchants } from '../loyalty/reference/refs';
import type { CreativeInput, CreativePatch } from './types';

const ENTITY = 'merchant_creative';

/** The order a merchant's creatives are answered in: as they were created. */
export const CREATIVE_ORDER = [{ createdAt: 'asc' }, { id: 'asc' }] satisfies Prisma.MerchantCreativeOrderByWithRelationInput[];

export interface CreativeFilter {
  merchantId?: string;
  type?: string;
}

/** The merchant must be a MERCHANT unit of the organisation now; its foreign key then keeps it from being deleted (409 IN_USE). */
const checkMerchant = (tx: Tx, organisationId: string, merchantId: string) => checkMerchants(tx, organisationId, [merchantId], () => 'merchant_id');

export async function createCreative(tx: Tx, actor: AuditActor, input: CreativeInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  await checkMerchant(tx, organisationId, input.merchant_id);
  const id = newId();
  await tx.merchantCreative.create({
    data: {
      id,
      organisationId,
      merchantId: input.merchant_id,
      type: input.type,
      width: input.width,
      height: input.height,
      format: input.format,
      url: input.url,
      publicId: input.public_id ?? null,
      srcset: input.srcset,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input), merchant_id: input.merchant_id } });
  return { id };
}

/** The creative, or 404 (also for another organisation's id). */
export async function getCreative(tx: Tx, organisationId: string, id: string): Promise<MerchantCreative> {
  return found(await tx.merchantCreative.findFirst({ where: { organisationId, id } }), 'Creative');
}

export async function listCreatives(tx: Tx, organisationId: string, args: ListArgs, q: CreativeFilter): Promise<ListPage<MerchantCreative>> {
  const where: Prisma.MerchantCreativeWhereInput = { organisationId, merchantId: q.merchantId, type: q.type };
  return pageOf(tx.merchantCreative.findMany({ where, ...args }), tx.merchantCreative.count({ where }));
}

/** Partial; a merchant_id given moves the creative to that merchant (checked as on create). */
export async function updateCreative(tx: Tx, actor: AuditActor, id: string, patch: CreativePatch): Promise<void> {
  const { organisationId } = actor;
  await getCreative(tx, organisationId, id);
  if (patch.merchant_id !== undefined) await checkMerchant(tx, organisationId, patch.merchant_id);
  await tx.merchantCreative.update({
    where: { id },
    data: {
      merchantId: patch.merchant_id,
      type: patch.type,
      width: patch.width,
      height: patch.height,
      format: patch.format,
      url: patch.url,
      publicId: patch.public_id,
      srcset: patch.srcset,
    },
  });
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch) } });
}

export async function deleteCreative(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const current = await getCreative(tx, actor.organisationId, id);
  await tx.merchantCreative.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { merchant_id: current.merchantId, type: current.type, url: current.url } });
}
