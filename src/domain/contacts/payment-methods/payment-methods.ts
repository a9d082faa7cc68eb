// Payment methods of a contact: add, list, delete. Each write locks the contact row, writes
// its audit row in the same transaction, and keeps at most one default per contact.
import { Prisma, type Tx } from '../../../db/client';
import { audit, type AuditActor } from '../../audit';
import { alreadyExists, notFound } from '../../errors';
import { newId } from '../../ids';
import type { ListArgs } from '../../lists';
import { withBillingAddress } from './billing-address';
import { assertNotAnonymized, findContact, lockContact } from './contact';
import { checkPaymentMethod } from './rules';
import type { PaymentMethodInput } from './types';

const ENTITY = 'payment_method';

export async function addPaymentMethod(tx: Tx, actor: AuditActor, contactRef: string, input: PaymentMethodInput, now = new Date()): Promise<{ id: string }> {
  const organisationId = actor.organisationId;
  const contact = await lockContact(tx, organisationId, contactRef);
  assertNotAnonymized(contact);
  const checked = checkPaymentMethod(input, now);
  const holder = checked.holder?.use_billing_address ? await withBillingAddress(tx, organisationId, contact.id, checked.holder) : checked.holder;

  const id = input.id ?? newId();
  if (input.id && (await tx.paymentMethod.findUnique({ where: { id }, select: { id: true } }))) {
    throw alreadyExists('id', 'A payment method with this id already exists');
  }
  const active = { organisationId, contactId: contact.id, deletedAt: null };
  // The first payment method of a contact is its default unless the caller says otherwise.
  const isDefault = input.is_default ?? input.card?.is_default ?? (await tx.paymentMethod.count({ where: active })) === 0;
  if (isDefault) await tx.paymentMethod.updateMany({ where: { ...active, isDefault: true }, data: { isDefault: false } });

  await tx.paymentMethod.create({
    data: {
      ...checked,
      id,
      organisationId,
      contactId: contact.id,
      isDefault,
      bank: json(checked.bank),
      classification: json(checked.classification),
      holder: json(holder),
      gatewayTokens: json(checked.gatewayTokens),
      createdAt: now,
    },
  });
  // Only what identifies the method: no tokens, no bank details (they would outlive anonymisation).
  await audit(tx, actor, {
    action: 'CREATE',
    entityType: ENTITY,
    entityId: id,
    changes: { contact_id: contact.id, payment_method_type: checked.type, is_default: isDefault, brand: checked.brand, last4: checked.last4 },
  });
  return { id };
}

/** Active (not deleted) methods of the contact, and the accounts that use them. */
export async function listPaymentMethods(tx: Tx, organisationId: string, contactRef: string, args: ListArgs) {
  const contact = await findContact(tx, organisationId, contactRef);
  const where = { organisationId, contactId: contact.id, deletedAt: null };
  const [rows, total, accounts] = await Promise.all([
    tx.paymentMethod.findMany({ where, ...args }),
    tx.paymentMethod.count({ where }),
    usingAccounts(tx, organisationId, contact.id),
  ]);
  return { rows, total, accounts };
}

/**
 * The contact's payment methods serve its primary account: the one that is billed and that
 * holds reward information (spec 1 rule 3). No operation ties a method to another account.
 */
function usingAccounts(tx: Tx, organisationId: string, contactId: string) {
  return tx.account.findMany({ where: { organisationId, contactId, isPrimary: true }, select: { id: true, number: true, name: true } });
}

/**
 * Soft delete: the row stays for history (masked number, type) but is no longer listed or
 * default, and its gateway tokens are erased so nothing can charge it any more.
 */
export async function deletePaymentMethod(tx: Tx, actor: AuditActor, contactRef: string, paymentMethodId: string, now = new Date()): Promise<void> {
  const contact = await lockContact(tx, actor.organisationId, contactRef);
  const result = await tx.paymentMethod.updateMany({
    where: { id: paymentMethodId, organisationId: actor.organisationId, contactId: contact.id, deletedAt: null },
    data: { deletedAt: now, isDefault: false, gatewayTokens: Prisma.DbNull },
  });
  if (result.count === 0) throw notFound('Payment method');
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: paymentMethodId, changes: { contact_id: contact.id } });
}

/** Plain JSON objects for Prisma's Json columns; null is stored as SQL NULL. */
function json(value: object | null): Prisma.InputJsonValue | typeof Prisma.DbNull {
  return value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue);
}
