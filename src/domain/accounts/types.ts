// Inputs of the account operations: what the request schemas produce after validation.
import type { z } from 'zod';
import type { accountCreateBody, accountListQuery, accountUpdateBody, memberCreateBody, memberUpdateBody } from '../../api/accounts/schemas';

export type AccountCreateInput = z.output<typeof accountCreateBody>;
export type AccountUpdateInput = z.output<typeof accountUpdateBody>;
export type AccountListFilter = Pick<z.output<typeof accountListQuery>, 'primary_only'>;
export type MemberCreateInput = z.output<typeof memberCreateBody>;
export type MemberUpdateInput = z.output<typeof memberUpdateBody>;
export type FundingScope = MemberCreateInput['funding_scope'];
