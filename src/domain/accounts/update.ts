// PUT /accounts/{id} (spec 4.2): partial; the checks all pass before anything is written, and
// the pipeline's transaction keeps a refusal from leaving half a change behind.
import type { Prisma, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { assertNotAnonymized, lockContact } from '../contacts/payment-methods/contact';
import { checkCustomFields } from '../custom-fields/check';
import { mergeCustomFields } from '../custom-fields/values';
import { conflict } from '../errors';
import { getSettings } from '../money/settings';
import { assertNotTerminated, billingAddressOf, checkCreditLimit, classificationId, demoteOtherPrimaries, findAccount } from './rules';
import type { AccountUpdateInput } from './types';

export async function updateAccount(tx: Tx, actor: AuditActor, id: string, input: AccountUpdateInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  await checkCustomFields(txSql(tx, organisationId), 'ACCOUNTS', input.custom_fields);
  const found = await findAccount(tx, organisationId, id);
  // Locks in one order everywhere, contact then account, so a concurrent create that demotes
  // this account cannot deadlock with us. Re-read under the locks.
  const contact = await lockContact(tx, organisationId, found.contactId);
  await tx.$queryRaw`SELECT id FROM accounts WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const account = await findAccount(tx, organisationId, id);
  assertNotTerminated(account);
  // An account name may carry personal data: an anonymized contact's accounts take none back.
  if (input.name) assertNotAnonymized(contact, 'name');
  if (input.is_primary === false && account.isPrimary) {
    throw conflict('PRIMARY_REQUIRED', 'A contact keeps one primary account: make another account primary instead', 'is_primary');
  }
  if (input.credit_limit !== undefined) checkCreditLimit(await getSettings(tx, organisationId), input.credit_limit, 'credit_limit');

  const data: Prisma.AccountUncheckedUpdateInput = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.credit_limit !== undefined) data.creditLimit = input.credit_limit;
  if (input.custom_fields) data.customFields = mergeCustomFields(account.customFields, input.custom_fields);
  if (input.classification_id !== undefined) {
    data.classificationId = input.classification_id && (await classificationId(tx, organisationId, input.classification_id));
  }
  if (input.billing_address_id !== undefined) {
    data.billingAddressId = input.billing_address_id && (await billingAddressOf(tx, organisationId, account.contactId, input.billing_address_id));
  }
  let demoted: string[] = [];
  if (input.is_primary === true && !account.isPrimary) {
    demoted = await demoteOtherPrimaries(tx, actor, account.contactId, id);
    data.isPrimary = true;
  }
  if (Object.keys(data).length) await tx.account.update({ where: { id }, data });
  await audit(tx, actor, { action: 'UPDATE', entityType: 'account', entityId: id, changes: { fields: Object.keys(input), demoted } });
  return { id };
}
