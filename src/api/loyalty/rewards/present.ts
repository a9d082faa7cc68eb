// Reward read models → responses (spec 2.6, 2.13). Amounts through amount(), times through epoch().
import type { z } from 'zod';
import type { MerchantRecord } from '../../../domain/loyalty/rewards/merchant-list';
import type { RewardsView } from '../../../domain/loyalty/rewards/read';
import type { SortField } from '../../lists';
import { presentMerchantCreative } from '../../network/creatives/present';
import { amount, epoch } from '../../present';
import type { merchantItem, rewardsRead } from './schemas';

type Read = z.input<typeof rewardsRead>;
type Preference = Read['automatic_spend_settings']['automatic_spend_preference'];

export function presentRewards(v: RewardsView): Read {
  const { account: a, reward: r } = v;
  const pm = v.paymentMethod;
  const blocked = v.blockedBy;
  return {
    name: a.name,
    number: a.number,
    currency_code: a.currencyCode,
    signed_up_on: epoch(r?.signedUpOn),
    sign_up_organisation: v.signUpOrganisation,
    spending_blocked_status: r?.spendingBlocked ?? false,
    spending_blocked_date: epoch(r?.spendingBlockedAt),
    spending_blocked_user: blocked && { id: blocked.id, email_address: blocked.emailAddress, first_name: blocked.firstName, last_name: blocked.lastName },
    automatic_spend_settings: {
      enable_automatic_spend: r?.autoSpendEnabled ?? false,
      automatic_spend_preference: (r?.autoSpendPreference ?? null) as Preference,
      minimum_wallet_balance: amount(r?.autoSpendMinimumBalance),
      from_purchase_amount: amount(r?.autoSpendFromAmount),
      allowed_merchants: v.allowedMerchants.map((m) => ({ id: m.id, name: m.name, is_next_visit: m.isNextVisit })),
    },
    reward_tier: v.tier && {
      id: v.tier.tier?.id ?? null,
      name: v.tier.tier?.name ?? null,
      color: v.tier.tier?.color ?? null,
      period_value_units: amount(v.tier.periodUnits),
      lifetime_value_units: amount(v.tier.lifetimeUnits),
      next_tier_progression: v.tier.progression,
    },
    joined_reward_schemes: v.schemes.map((s) => ({
      id: s.id, name: s.name, signed_up_on: epoch(s.signedUpOn), email_address: s.emailAddress, sign_up_option: s.signUpOption,
    })),
    preferred_payment_method: pm && { id: pm.id, type: pm.type, first6: pm.first6, last4: pm.last4, iban: pm.iban },
  };
}

export const MERCHANT_SORT: Record<string, SortField> = { name: 'name', code: 'code', created_on: 'createdAt' };

const tap = (t: { id: string; name: string; code: string }) => ({ id: t.id, name: t.name, code: t.code });

export function presentMerchant(m: MerchantRecord): z.input<typeof merchantItem> {
  return {
    id: m.id,
    code: m.code,
    name: m.name,
    description: m.description,
    // spec 2.13 word for word: "true when it has no child units" (docs/rewards.md).
    is_parent: m._count.children === 0,
    ...(m.schemes && { schemes: m.schemes.map((s) => ({ id: s.id, name: s.name, code: s.code })) }),
    tap: m.taps.map(tap),
    ...(m.venues && { venues: m.venues.map((v) => ({ id: v.id, name: v.name, taps: v.taps.map(tap) })) }),
    creatives: m.creatives.map(presentMerchantCreative),
  };
}
