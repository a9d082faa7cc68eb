// Accounts made together with a contact (spec 2.1 `accounts[]`, `create_default_account`).
// The rest of an account's life is src/domain/accounts; the rules here are the ones of
// creation, shared with POST /contacts/{id}/accounts: exactly one primary per contact, a
// generated number unique in the organisation, the settings' currency and credit-limit range.
// Everything is checked before the contact's statement writes anything (create.ts).
import type { OrgSql } from '../../db/sql';
import { freeAccountNumber } from '../accounts/numbers';
import { checkCreditLimit } from '../accounts/rules';
import { invalid } from '../errors';
import { newId } from '../ids';
import { moneyText } from '../money';
import { getSettingsSql } from '../money/settings';
import { findAccountClassification } from '../reference';
import { CONTACT_DEFAULTS } from './defaults';
import { checkOnePrimary, primaryFlags } from './normalise';
import type { AccountInput } from './types';

/** An account row as the contact's statement inserts it (jsonb_to_recordset, column names). */
export interface NewAccountRow {
  id: string;
  number: string;
  name: string | null;
  is_primary: boolean;
  life_cycle_state: string;
  currency_code: string;
  classification_id: string | null;
  credit_limit: string | null;
  credit_rating: string | null;
  is_tax_exempt: boolean;
}

/** The accounts of a new contact, in input order, checked (400 naming the field); nothing is written here. */
export async function newAccountRows(sql: OrgSql, inputs: AccountInput[]): Promise<NewAccountRow[]> {
  checkOnePrimary(inputs, 'accounts');
  if (!inputs.length) return [];
  const settings = await getSettingsSql(sql);
  inputs.forEach((a, i) => checkCreditLimit(settings, a.credit_limit, `accounts.${i}.credit_limit`));
  const primary = primaryFlags(inputs);
  const rows: NewAccountRow[] = [];
  for (const [i, a] of inputs.entries()) {
    rows.push({
      id: newId(),
      number: await freeAccountNumber(sql),
      name: a.name ?? null,
      is_primary: primary[i],
      life_cycle_state: CONTACT_DEFAULTS.accountLifeCycleState,
      currency_code: a.currency_code ?? settings.systemCurrencyCode,
      classification_id: await classificationId(sql, a, `accounts.${i}`),
      credit_limit: a.credit_limit === null || a.credit_limit === undefined ? null : moneyText(a.credit_limit),
      credit_rating: a.credit_rating ?? null,
      is_tax_exempt: a.is_tax_exempt ?? false,
    });
  }
  return rows;
}

/** The account `create_default_account` makes: nothing but system defaults. */
export function defaultAccount(): AccountInput {
  return { name: CONTACT_DEFAULTS.defaultAccountName, is_primary: true };
}

async function classificationId(sql: OrgSql, a: AccountInput, attribute: string): Promise<string | null> {
  if (a.classification_id !== undefined && a.classification !== undefined) {
    throw invalid(`${attribute}.classification`, 'give classification_id or classification, not both');
  }
  if (a.classification_id !== undefined) return (await findAccountClassification(sql, { id: a.classification_id }, `${attribute}.classification_id`)).id;
  if (a.classification !== undefined) return (await findAccountClassification(sql, a.classification, `${attribute}.classification`)).id;
  return null;
}
