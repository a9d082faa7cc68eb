// The account reads (spec 2.3): a contact's accounts, each with its first live wallet, and one
// account's financials. Wallet figures come from the ledger (walletFigures), in one statement
// for all the wallets of a read.
import type { AccountingPeriod, Prisma, Tx, Wallet } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { findContactId } from '../contacts/lookup';
import { notFound } from '../errors';
import type { ListArgs, ListPage } from '../lists';
import type { Money } from '../money';
import { walletFigures, type WalletFigures } from '../money/ledger/figures';
import { latestClosedPeriod, openingBalance } from '../money/period-close';
import { getSettings, type Settings } from '../money/settings';
import type { AccountListFilter } from './types';

const LIST_INCLUDE = { classification: { select: { id: true, name: true } } } satisfies Prisma.AccountInclude;
const FINANCIALS_INCLUDE = { ...LIST_INCLUDE, billingAddress: true } satisfies Prisma.AccountInclude;

export interface FiguredWallet {
  wallet: Wallet;
  figures: WalletFigures;
}

export type AccountListRow = Prisma.AccountGetPayload<{ include: typeof LIST_INCLUDE }> & { wallet: FiguredWallet | null };

export async function listAccounts(tx: Tx, sql: OrgSql, organisationId: string, contactRef: string, args: ListArgs, filter: AccountListFilter): Promise<ListPage<AccountListRow>> {
  const contactId = await findContactId(sql, contactRef);
  const where: Prisma.AccountWhereInput = { organisationId, contactId, ...(filter.primary_only ? { isPrimary: true } : {}) };
  const [rows, total] = await Promise.all([tx.account.findMany({ where, include: LIST_INCLUDE, ...args }), tx.account.count({ where })]);
  // Every live wallet of the page's accounts, oldest first: each account shows its first one.
  const live = await tx.wallet.findMany({
    where: { organisationId, accountId: { in: rows.map((r) => r.id) }, lifeCycleState: { not: 'CANCELLED' } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const first = new Map<string, Wallet>();
  for (const w of live) if (!first.has(w.accountId)) first.set(w.accountId, w);
  const figured = await withFigures(sql, [...first.values()]);
  return { rows: rows.map((r) => ({ ...r, wallet: figured.find((f) => f.wallet.accountId === r.id) ?? null })), total };
}

export type FinancialsAccount = Prisma.AccountGetPayload<{ include: typeof FINANCIALS_INCLUDE }>;

export interface AccountFinancials {
  account: FinancialsAccount;
  period: AccountingPeriod | null;
  openingBalance: Money;
  /** Every wallet of the account, cancelled ones too, by creation. */
  wallets: FiguredWallet[];
  /** For the wallets that set no minimum balance or limit rules of their own. */
  settings: Settings;
}

export async function accountFinancials(tx: Tx, sql: OrgSql, organisationId: string, id: string): Promise<AccountFinancials> {
  const account = await tx.account.findFirst({ where: { organisationId, id }, include: FINANCIALS_INCLUDE });
  if (!account) throw notFound('Account');
  const [period, opening, wallets, settings] = await Promise.all([
    latestClosedPeriod(tx, organisationId),
    openingBalance(tx, organisationId, id),
    tx.wallet.findMany({ where: { organisationId, accountId: id }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    getSettings(tx, organisationId),
  ]);
  return { account, period, openingBalance: opening, wallets: await withFigures(sql, wallets), settings };
}

async function withFigures(sql: OrgSql, wallets: Wallet[]): Promise<FiguredWallet[]> {
  const figures = await walletFigures(sql, wallets.map((w) => w.id));
  return wallets.map((wallet) => ({ wallet, figures: figures.get(wallet.id)! }));
}
