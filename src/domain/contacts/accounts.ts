// Accounts made together with a contact (spec 2.1 `accounts[]`, `create_default_account`).
// The rest of an account's life is src/domain/accounts; the rules here are the ones of
// creation, shared with POST /contacts/{id}/accounts: exactly one primary per contact, a
// generated number unique in the organisation, the settings' currency and credit-limit range.
import type { Tx } from '../../db/client';
import { freeAccountNumber } from '../accounts/numbers';
import { checkCreditLimit } from '../accounts/rules';
import { invalid } from '../errors';
import { newId } from '../ids';
import { getSettings } from '../money/settings';
import { findAccountClassification } from '../reference';
import { CONTACT_DEFAULTS } from './defaults';
import { checkOnePrimary, primaryFlags } from './normalise';
import type { AccountInput } from './types';

export interface NewAccountsContext {
  organisationId: string;
  contactId: string;
  /** The contact's primary address: every new account's billing address by default. */
  billingAddressId: string | null;
}

/** Creates the accounts of a new contact; returns their ids in input order. */
export async function createAccounts(tx: Tx, ctx: NewAccountsContext, inputs: AccountInput[]): Promise<string[]> {
  checkOnePrimary(inputs, 'accounts');
  if (!inputs.length) return [];
  const settings = await getSettings(tx, ctx.organisationId);
  inputs.forEach((a, i) => checkCreditLimit(settings, a.credit_limit, `accounts.${i}.credit_limit`));
  const primary = primaryFlags(inputs);
  const ids: string[] = [];
  for (const [i, a] of inputs.entries()) {
    const id = newId();
    await tx.account.create({
      data: {
        id,
        organisationId: ctx.organisationId,
        contactId: ctx.contactId,
        number: await freeAccountNumber(tx, ctx.organisationId),
        name: a.name ?? null,
        isPrimary: primary[i],
        lifeCycleState: CONTACT_DEFAULTS.accountLifeCycleState,
        currencyCode: a.currency_code ?? settings.systemCurrencyCode,
        classificationId: await classificationId(tx, ctx.organisationId, a, `accounts.${i}`),
        creditLimit: a.credit_limit ?? null,
        creditRating: a.credit_rating ?? null,
        isTaxExempt: a.is_tax_exempt ?? false,
        billingAddressId: ctx.billingAddressId,
      },
    });
    ids.push(id);
  }
  return ids;
}

/** The account `create_default_account` makes: nothing but system defaults. */
export function defaultAccount(): AccountInput {
  return { name: CONTACT_DEFAULTS.defaultAccountName, is_primary: true };
}

async function classificationId(tx: Tx, organisationId: string, a: AccountInput, attribute: string): Promise<string | null> {
  if (a.classification_id !== undefined && a.classification !== undefined) {
    throw invalid(`${attribute}.classification`, 'give classification_id or classification, not both');
  }
  if (a.classification_id !== undefined) {
    return (await findAccountClassification(tx, organisationId, { id: a.classification_id }, `${attribute}.classification_id`)).id;
  }
  if (a.classification !== undefined) return (await findAccountClassification(tx, organisationId, a.classification, `${attribute}.classification`)).id;
  return null;
}
