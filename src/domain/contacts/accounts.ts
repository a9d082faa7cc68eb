// Accounts made together with a contact (spec 2.1 `accounts[]`, `create_default_account`).
// The accounts issue adds the rest of the account's life; the rules here are the ones of
// creation: exactly one primary per contact, a generated number unique in the organisation,
// system defaults for what the input leaves out.
import { randomInt } from 'node:crypto';
import type { Tx } from '../../db/client';
import { invalid } from '../errors';
import { newId } from '../ids';
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
        currencyCode: a.currency_code ?? CONTACT_DEFAULTS.accountCurrencyCode,
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

/**
 * A random number not yet used in the organisation. Random rather than a sequence so numbers
 * reveal nothing about volumes; ten digits make a clash rare, and the unique index still
 * decides a race.
 */
export async function freeAccountNumber(tx: Tx, organisationId: string): Promise<string> {
  const digits = CONTACT_DEFAULTS.accountNumberDigits;
  for (let attempt = 0; attempt < 10; attempt++) {
    const number = String(randomInt(1, 10)) + Array.from({ length: digits - 1 }, () => randomInt(0, 10)).join('');
    const taken = await tx.account.findFirst({ where: { organisationId, number }, select: { id: true } });
    if (!taken) return number;
  }
  throw new Error('No free account number found after 10 attempts');
}
