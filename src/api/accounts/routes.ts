// Accounts of a contact and account groups (spec 2.3, 4.2); decisions in docs/accounts.md.
// POST /accounts/{id}/life_cycle_state lives with the termination saga (src/api/accounts/termination.ts).
import { actorOf } from '../../domain/audit';
import { createAccount } from '../../domain/accounts/create';
import { addMember, removeMember, updateMember } from '../../domain/accounts/members';
import { listMembers } from '../../domain/accounts/members-read';
import { accountFinancials, listAccounts } from '../../domain/accounts/read';
import { updateAccount } from '../../domain/accounts/update';
import { contactParams } from '../contacts/schemas';
import { listArgs, namedPage } from '../lists';
import { groupAuth, route, type RouteDef } from '../route';
import { idParams, idResponse, SOME_ID } from '../validation';
import { ACCOUNT_SORT, presentAccountItem, presentFinancials, presentMember } from './present';
import {
  accountCreateBody,
  accountFinancials as financialsResponse,
  accountList,
  accountListQuery,
  accountUpdateBody,
  memberCreateBody,
  memberList,
  memberParams,
  memberUpdateBody,
} from './schemas';

const TAG = 'Accounts';
const { read, write } = groupAuth('accounts');

export function accountRoutes(): RouteDef[] {
  return [
    route({
      method: 'post', path: '/contacts/{id}/accounts', operationId: 'createContactAccount', tag: TAG, auth: write,
      summary: 'Add an account to a contact',
      description:
        "The contact by GUID or code. Currency defaults to the settings' system currency, the billing address to the contact's primary address. " +
        "is_primary: true makes it the primary account (the previous one stops being primary); a contact's first account is primary anyway. " +
        "credit_limit must lie within the settings' range. An anonymized contact answers 409 CONTACT_ANONYMIZED.",
      params: contactParams, body: accountCreateBody, response: idResponse, errors: [404, 409],
      example: { name: 'Savings', currency_code: 'EUR', is_primary: false, credit_limit: 250, custom_fields: [{ key: 'renewal_date', value: '2027-01-31' }] },
      handler: ({ ctx, params, body }) => createAccount(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'get', path: '/contacts/{id}/accounts', operationId: 'listContactAccounts', tag: TAG, auth: read,
      summary: "List a contact's accounts",
      description: 'Sortable by number, name, created_on (default: newest first); primary_only=true answers the primary account alone.',
      params: contactParams, query: accountListQuery, response: accountList, errors: [404],
      handler: async ({ ctx, params, query }) => {
        const page = await listAccounts(ctx.db, ctx.sql, ctx.organisationId, params.id, listArgs(query, ACCOUNT_SORT), query);
        return namedPage('accounts', query, page.rows.map(presentAccountItem), page.total);
      },
    }),
    route({
      method: 'put', path: '/accounts/{id}', operationId: 'updateAccount', tag: TAG, auth: write,
      summary: 'Update an account (partial)',
      description:
        'is_primary: true makes it primary and the other account not; false on the primary account answers 409 PRIMARY_REQUIRED. ' +
        "billing_address_id must be an address of the account's contact. custom_fields[] are merged by key into the stored ones. A terminated account answers 409 ACCOUNT_TERMINATED.",
      params: idParams, body: accountUpdateBody, response: idResponse, errors: [404, 409],
      example: { name: 'Household', is_primary: true, credit_limit: 1000, custom_fields: [{ key: 'renewal_date', value: '2028-01-31' }] },
      handler: ({ ctx, params, body }) => updateAccount(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'get', path: '/accounts/{id}/financials', operationId: 'getAccountFinancials', tag: TAG, auth: read,
      summary: "An account's balances, wallets and latest closed period",
      params: idParams, response: financialsResponse, errors: [404],
      handler: async ({ ctx, params }) => presentFinancials(await accountFinancials(ctx.db, ctx.sql, ctx.organisationId, params.id)),
    }),
    route({
      method: 'post', path: '/accounts/{id}/members', operationId: 'addAccountMember', tag: TAG, auth: write,
      summary: 'Add a member to an account group',
      description:
        'The account {id} funds the member FULLY, or PARTIALLY for the listed products, product types and families. A member belongs to one group ' +
        '(409 ALREADY_MEMBER), never to itself (400), and groups never form a loop (409 GROUP_CYCLE). Answers the member record id.',
      params: idParams, body: memberCreateBody, response: idResponse, errors: [404, 409],
      example: { member_account_id: SOME_ID, funding_scope: 'PARTIALLY', products: [SOME_ID], product_types: [], product_families: [] },
      handler: ({ ctx, params, body }) => addMember(ctx.db, actorOf(ctx), params.id, body),
    }),
    route({
      method: 'get', path: '/accounts/{id}/members', operationId: 'listAccountMembers', tag: TAG, auth: read,
      summary: "List an account group's members", description: 'All members, oldest first.',
      params: idParams, response: memberList, errors: [404],
      handler: async ({ ctx, params }) => ({ members: (await listMembers(ctx.db, ctx.organisationId, params.id)).map(presentMember) }),
    }),
    route({
      method: 'put', path: '/accounts/{id}/members/{member_id}', operationId: 'updateAccountMember', tag: TAG, auth: write,
      summary: 'Change what a group funds of a member (partial)', description: 'A list given replaces the list; the result must hold together as on add.',
      params: memberParams, body: memberUpdateBody, response: idResponse, errors: [404, 409],
      example: { funding_scope: 'FULLY', products: [], product_types: [], product_families: [] },
      handler: ({ ctx, params, body }) => updateMember(ctx.db, actorOf(ctx), params.id, params.member_id, body),
    }),
    route({
      method: 'delete', path: '/accounts/{id}/members/{member_id}', operationId: 'removeAccountMember', tag: TAG, auth: write,
      summary: 'Remove a member from an account group', description: 'Also from a terminated group: it frees the member to join another.',
      params: memberParams, response: idResponse, errors: [404],
      handler: ({ ctx, params }) => removeMember(ctx.db, actorOf(ctx), params.id, params.member_id),
    }),
  ];
}
