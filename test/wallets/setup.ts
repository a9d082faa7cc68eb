// Shared by the wallet tests: a contact with an account and a wallet, journals, and the ledger
// check every money test ends with (docs/money.md "Proof").
import type { Db } from '../../src/db/client';
import { checkLedger } from '../../src/domain/money/ledger/check';
import { api } from '../support/api';
import { createId } from '../money/helpers';

let counter = 0;

/** A new contact with its primary account; answers their ids. */
export async function contactWithAccount(key: string, db: Db, currency = 'EUR'): Promise<{ contactId: string; accountId: string; code: string }> {
  const code = `W-${process.pid}-${++counter}-${Date.now().toString(36)}`;
  const contactId = await createId(key, '/contacts', { contact_type: 'PERSON', code, first_name: 'Wal', last_name: 'Let', accounts: [{ name: 'Main', is_primary: true, currency_code: currency }] });
  const account = await db.account.findFirstOrThrow({ where: { contactId } });
  return { contactId, accountId: account.id, code };
}

export async function newWallet(key: string, accountId: string, body: object = {}): Promise<string> {
  return createId(key, `/accounts/${accountId}/wallets`, body);
}

export function journal(key: string, body: Record<string, unknown>) {
  return api('POST', '/journals', { key, body });
}

export async function credit(key: string, walletId: string, amount: number, extra: Record<string, unknown> = {}): Promise<string> {
  return createId(key, '/journals', { wallet_id: walletId, amount, type: 'CREDIT', ...extra });
}

export async function walletOf(key: string, contactId: string, walletId: string) {
  const res = await api('GET', `/contacts/${contactId}/wallets`, { key });
  expect(res.status).toBe(200);
  return res.body.find((w: { id: string }) => w.id === walletId);
}

export async function expectLedgerHolds(db: Db, organisationId: string): Promise<void> {
  expect(await checkLedger(db, organisationId)).toEqual([]);
}
