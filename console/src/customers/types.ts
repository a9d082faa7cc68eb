// Shapes of the customer pages' answers and bodies, named from the generated paths (never by hand).
import type { components, paths } from '@api/schema';
import type { Body, Get } from '../api/types';

export type ContactSearch = Get<'/contacts'>;
export type ContactSearchQuery = NonNullable<paths['/contacts']['get']['parameters']['query']>;
/** A country code as the API takes it (alpha-2 or alpha-3, any case: the API judges what is typed). */
export type CountryCode = components['schemas']['CountryCode'];
export type ContactRow = ContactSearch['contacts'][number];
export type Contact = Get<'/contacts/{id}'>;
export type ContactCreate = Body<'/contacts', 'post'>;
export type ContactUpdate = Body<'/contacts/{id}', 'put'>;
export type ConsentState = NonNullable<Contact['consent_state']>;
export type Account = Get<'/contacts/{id}/accounts'>['accounts'][number];
export type Wallet = Get<'/contacts/{id}/wallets'>[number];
export type SpendBalance = Get<'/wallets/{id}/balances'>[number];
export type SpendCondition = Get<'/spend_conditions'>['content'][number];
export type WalletTransaction = Get<'/contacts/{id}/wallet_transactions'>['content'][number];
export type JournalBody = Body<'/journals', 'post'>;
export type Purchase = Get<'/purchases'>['purchases'][number];
export type Voucher = Get<'/vouchers'>['content'][number];
export type Rewards = Get<'/accounts/{id}/rewards'>;
export type RewardScheme = Get<'/reward_schemes'>['content'][number];
export type FeedItem = Get<'/contacts/{id}/activity_feed'>['activity_feed'][number];
export type Communication = Get<'/communications'>['content'][number];
