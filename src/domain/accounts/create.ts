// POST /contacts/{id}/accounts (spec 4.2): one more account of a contact, with its audit row.
import type { Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { audit, type AuditActor } from '../audit';
import { CONTACT_DEFAULTS } from '../contacts/defaults';
import { assertNotAnonymized, lockContact } from '../contacts/payment-methods/contact';
import { checkCustomFields } from '../custom-fields/check';
import { mergeCustomFields } from '../custom-fields/values';
import { newId } from '../ids';
import { getSettings } from '../money/settings';
import { freeAccountNumber } from './numbers';
import { billingAddressOf, checkCreditLimit, classificationId, demoteOtherPrimaries, primaryAddressId } from './rules';
import type { AccountCreateInput } from './types';

export async function createAccount(tx: Tx, actor: AuditActor, contactRef: string, input: AccountCreateInput): Promise<{ id: string }> {
  const { organisationId } = actor;
  const sql = txSql(tx, organisationId);
  await checkCustomFields(sql, 'ACCOUNTS', input.custom_fields);
  // The contact's row lock serialises every change of which account is primary (and an
  // anonymisation), so two concurrent first accounts cannot both become primary.
  const contact = await lockContact(tx, organisationId, contactRef);
  assertNotAnonymized(contact);
  const settings = await getSettings(tx, organisationId);
  checkCreditLimit(settings, input.credit_limit, 'credit_limit');
  const classification = input.classification_id === undefined ? null : await classificationId(tx, organisationId, input.classification_id);
  const billingAddressId =
    input.billing_address_id === undefined
      ? await primaryAddressId(tx, organisationId, contact.id)
      : input.billing_address_id && (await billingAddressOf(tx, organisationId, contact.id, input.billing_address_id));

  // A contact always has one primary account: its first one is, whatever the body says.
  const hasPrimary = (await tx.account.count({ where: { organisationId, contactId: contact.id, isPrimary: true } })) > 0;
  const isPrimary = !hasPrimary || input.is_primary === true;
  const id = newId();
  const demoted = isPrimary ? await demoteOtherPrimaries(tx, actor, contact.id, id) : [];
  await tx.account.create({
    data: {
      id,
      organisationId,
      contactId: contact.id,
      number: await freeAccountNumber(sql),
      name: input.name ?? null,
      isPrimary,
      lifeCycleState: CONTACT_DEFAULTS.accountLifeCycleState,
      currencyCode: input.currency_code ?? settings.systemCurrencyCode,
      classificationId: classification,
      creditLimit: input.credit_limit ?? null,
      billingAddressId: billingAddressId ?? null,
      customFields: input.custom_fields ? mergeCustomFields(null, input.custom_fields) : undefined,
    },
  });
  await audit(tx, actor, { action: 'CREATE', entityType: 'account', entityId: id, changes: { contact_id: contact.id, fields: Object.keys(input), is_primary: isPrimary, demoted } });
  return { id };
}
