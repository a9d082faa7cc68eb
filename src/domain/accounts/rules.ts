// Rules every account write shares (docs/accounts.md): the credit-limit range of the settings,
// a billing address of the account's own contact, one primary account per contact, nothing
// changes on a terminated account.
import type { Account, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { conflict, found, invalid } from '../errors';
import type { Money } from '../money';
import type { Settings } from '../money/settings';
import { findAccountClassification } from '../reference';

/** A credit limit given must lie within the settings' range; null (no credit limit) always may. */
export function checkCreditLimit(settings: Settings, value: Money | null | undefined, attribute: string): void {
  if (value === null || value === undefined) return;
  const { creditLimitMin: min, creditLimitMax: max } = settings;
  if ((min !== null && value.lt(min)) || (max !== null && value.gt(max))) {
    const range = `${min?.toFixed() ?? 'no minimum'} to ${max?.toFixed() ?? 'no maximum'}`;
    throw invalid(attribute, `${attribute} must be within the range the settings allow (${range})`);
  }
}

/** The address must be one of the contact's: another contact's (or none) is the body's mistake. */
export async function billingAddressOf(tx: Tx, organisationId: string, contactId: string, addressId: string, attribute = 'billing_address_id'): Promise<string> {
  const address = await tx.contactAddress.findFirst({ where: { organisationId, contactId, id: addressId }, select: { id: true } });
  if (!address) throw invalid(attribute, `${attribute}: no such address of the account's contact`);
  return address.id;
}

/** The contact's primary address, which a new account bills to unless told otherwise. */
export async function primaryAddressId(tx: Tx, organisationId: string, contactId: string): Promise<string | null> {
  const address = await tx.contactAddress.findFirst({ where: { organisationId, contactId, isPrimary: true }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: { id: true } });
  return address?.id ?? null;
}

export async function classificationId(tx: Tx, organisationId: string, id: string, attribute = 'classification_id'): Promise<string> {
  return (await findAccountClassification(txSql(tx, organisationId), { id }, attribute)).id;
}

/**
 * The contact's other primary account stops being primary, with its own audit row (the caller
 * holds the contact's lock). Answers the ids demoted.
 */
export async function demoteOtherPrimaries(tx: Tx, actor: AuditActor, contactId: string, keepId: string): Promise<string[]> {
  const { organisationId } = actor;
  const others = await tx.account.findMany({ where: { organisationId, contactId, isPrimary: true, id: { not: keepId } }, select: { id: true } });
  if (!others.length) return [];
  await tx.account.updateMany({ where: { organisationId, id: { in: others.map((a) => a.id) } }, data: { isPrimary: false } });
  for (const other of others) {
    await audit(tx, actor, { action: 'UPDATE', entityType: 'account', entityId: other.id, changes: { is_primary: false, primary_account_id: keepId } });
  }
  return others.map((a) => a.id);
}

export async function findAccount(tx: Tx, organisationId: string, id: string): Promise<Account> {
  return found(await tx.account.findFirst({ where: { organisationId, id } }), 'Account');
}

/** TERMINATED is final: the account's settings and group stay as the termination left them. */
export function assertNotTerminated(account: Account, attribute?: string): void {
  if (account.lifeCycleState === 'TERMINATED') {
    throw conflict('ACCOUNT_TERMINATED', `Account ${account.number} is terminated and cannot change`, attribute);
  }
}
