// Wallets, journals and the contact's money (spec 4.1, 4.3; docs/money.md).
import { actorOf } from '../../domain/audit';
import { findContactId } from '../../domain/contacts/lookup';
import { postJournal } from '../../domain/money/ledger/journal';
import { contactTransactions, contactWallets, walletBalances, walletExists } from '../../domain/money/ledger/reads';
import { voidTransaction } from '../../domain/money/ledger/void';
import { getSettings } from '../../domain/money/settings';
import { getSpendConditions } from '../../domain/spend-conditions/read';
import { createWallet, moveWallet, updateWallet } from '../../domain/wallets/wallets';
import { notFound } from '../../domain/errors';
import { contactParams } from '../contacts/schemas';
import { contentPage } from '../lists';
import type { AppDeps } from '../deps';
import { moneyContext } from '../money/context';
import { groupAuth, route, type RequestContext, type RouteDef } from '../route';
import { idParams, idResponse, SOME_ID } from '../validation';
import { presentBalance, presentContactWallet, presentTransaction } from './present';
import { balanceList, balanceQuery, contactWallet, walletTransactionList, walletTransactionQuery } from './responses';
import { journalBody, voidBody, voidParams, walletActionBody, walletCancelBody, walletCreateBody, walletParams, walletUpdateBody } from './schemas';
import { z } from 'zod';

const TAG = 'Wallets';
const { read, write } = groupAuth('wallets');

export function walletRoutes(deps: AppDeps): RouteDef[] {
  const money = (ctx: RequestContext) => moneyContext(ctx);

  return [
    route({
      method: 'post', path: '/accounts/{id}/wallets', operationId: 'createWallet', tag: TAG, auth: write,
      summary: 'Create a wallet of an account', description: 'The 16-digit code is generated when not given. Currency: the account\'s unless given.',
      params: idParams, body: walletCreateBody, response: idResponse, errors: [404, 409],
      example: { minimum_balance: 0, limit_rules: [{ period: 'DAILY', transaction_type: 'DEBIT', limit_amount: 500 }] },
      handler: ({ ctx, params, body }) => createWallet(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'put', path: '/wallets/{id}', operationId: 'updateWallet', tag: TAG, auth: write,
      summary: 'Update minimum balance, limit rules and auto top-up', params: walletParams, body: walletUpdateBody, response: idResponse, errors: [404, 409],
      example: { minimum_balance: -50, auto_topup: { threshold: 10, amount: 50, payment_method: 'CARD' } },
      handler: ({ ctx, params, body }) => updateWallet(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'post', path: '/wallets/{id}/actions', operationId: 'moveWallet', tag: TAG, auth: write,
      summary: 'Move a wallet in its life cycle', description: 'EFFECTIVE ⇄ SUSPENDED; either → CANCELLED (final). The current state again changes nothing.',
      params: walletParams, body: walletActionBody, response: idResponse, errors: [404, 409],
      example: { action: 'SUSPENDED' },
      handler: ({ ctx, params, body }) => moveWallet(ctx.db, actorOf(ctx), params.id, body.action),
    }),
    route({
      method: 'post', path: '/wallets/{id}/cancel', operationId: 'cancelWallet', tag: TAG, auth: write,
      summary: 'Cancel a wallet', description: 'Final: a cancelled wallet takes no journal. Its balance stays where it is (termination moves balances).',
      params: walletParams, body: walletCancelBody, response: idResponse, errors: [404, 409],
      example: { custom_fields: [{ key: 'reason', value: 'closed by customer' }] },
      handler: ({ ctx, params, body }) => moveWallet(ctx.db, actorOf(ctx), params.id, 'CANCELLED', body.custom_fields),
    }),
    route({
      method: 'get', path: '/wallets/{id}/balances', operationId: 'getWalletBalances', tag: TAG, auth: read,
      summary: 'Balances per spend condition', description: 'One item per spend condition with unexpired funds, and one with `id: null` for unrestricted funds.',
      params: walletParams, query: balanceQuery, response: balanceList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        if (!(await walletExists(ctx.sql, params.id))) throw notFound('Wallet');
        const buckets = await walletBalances(ctx.sql, params.id, query.spend_condition_id ?? null, query);
        const conditions = await getSpendConditions(ctx.db, ctx.organisationId, buckets.flatMap((b) => (b.spendConditionId ? [b.spendConditionId] : [])));
        return buckets.map((b) => presentBalance(b, b.spendConditionId ? conditions.get(b.spendConditionId) : undefined, query.include_expiration === true));
      },
    }),
    route({
      method: 'post', path: '/journals', operationId: 'postJournal', tag: TAG, auth: write,
      summary: 'Credit or debit a wallet',
      description: 'The answer `id` is the journal, which is also the wallet transaction the contact sees. 409 INSUFFICIENT_BALANCE, LIMIT_EXCEEDED, WALLET_CANCELLED, WALLET_SUSPENDED.',
      body: journalBody, response: idResponse, errors: [409], transaction: 'sql',
      example: { wallet_id: SOME_ID, amount: 25.5, type: 'CREDIT', description: 'Goodwill', valid_to: 1893456000 },
      handler: ({ ctx, body }) => postJournal(money(ctx), body),
    }),
    route({
      method: 'get', path: '/contacts/{id}/wallets', operationId: 'listContactWallets', tag: TAG, auth: read,
      summary: "The contact's wallets with their balances", params: contactParams, response: z.array(contactWallet), errors: [404],
      handler: async ({ ctx, params }) => {
        const contactId = await findContactId(ctx.sql, params.id);
        const [wallets, settings] = await Promise.all([contactWallets(ctx.sql, contactId), getSettings(ctx.db, ctx.organisationId)]);
        return wallets.map((w) => presentContactWallet(w, settings));
      },
    }),
    route({
      method: 'get', path: '/contacts/{id}/wallet_transactions', operationId: 'listContactWalletTransactions', tag: TAG, auth: read,
      summary: "The contact's wallet transactions", params: contactParams, query: walletTransactionQuery, response: walletTransactionList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const contactId = await findContactId(ctx.sql, params.id);
        const page = await contactTransactions(ctx.sql, contactId, query);
        return contentPage(query, page.rows.map(presentTransaction), page.total);
      },
    }),
    route({
      method: 'post', path: '/contacts/{id}/wallet_transactions/{transaction_id}', operationId: 'voidWalletTransaction', tag: TAG, auth: write,
      summary: 'Void a wallet transaction',
      description: 'Appends compensating entries and marks it VOID. 409 ALREADY_VOID on a second void; INSUFFICIENT_BALANCE when part of a credit was already spent.',
      params: voidParams, body: voidBody, response: idResponse, errors: [404, 409], transaction: 'sql',
      example: { custom_fields: [{ key: 'reason', value: 'duplicate' }] },
      handler: async ({ ctx, params, body }) => {
        const contactId = await findContactId(ctx.sql, params.id);
        return voidTransaction(money(ctx), contactId, params.transaction_id, body.custom_fields);
      },
    }),
  ];
}
