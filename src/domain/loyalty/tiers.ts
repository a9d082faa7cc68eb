// Which reward tier an account has reached, and how far it is towards the next one
// (docs/loyalty.md "Tiers"). Pure: purchases call it to keep account_rewards.reward_tier_id,
// the rewards read calls it for next_tier_progression.
import { Money } from '../money';
import { nowSeconds } from '../clock';

export interface TierThresholds {
  id: string;
  /** Tiers are ranked by position, lowest first. */
  position: number;
  periodValueUnits: Money;
  lifetimeValueUnits: Money;
}

export interface TierProgress<T extends TierThresholds> {
  /** The highest tier reached, or null below the first. */
  tier: T | null;
  next: T | null;
  /** Percentage (0-100, two decimals) of the way to `next`; 100 at the top tier. */
  progression: number;
}

/** A tier is reached when the period's value units reach its period threshold or the lifetime's reach its lifetime threshold. */
export function tierProgress<T extends TierThresholds>(tiers: readonly T[], period: Money, lifetime: Money): TierProgress<T> {
  const ranked = [...tiers].sort((a, b) => a.position - b.position);
  const reached = (t: T) => period.gte(t.periodValueUnits) || lifetime.gte(t.lifetimeValueUnits);
  let index = -1;
  ranked.forEach((t, i) => {
    if (reached(t)) index = i;
  });
  const tier = index >= 0 ? ranked[index] : null;
  const next = ranked[index + 1] ?? null;
  if (!next) return { tier, next, progression: 100 };
  const share = (have: Money, need: Money) => (need.lte(0) ? new Money(1) : Money.min(have.div(need), 1));
  const best = Money.max(share(period, next.periodValueUnits), share(lifetime, next.lifetimeValueUnits));
  return { tier, next, progression: best.times(100).toDecimalPlaces(2, Money.ROUND_DOWN).toNumber() };
}

/** The calendar year (UTC) a moment falls in: the tier period (docs/loyalty.md "Tiers"). */
export function periodYearOf(at: Date): number {
  return at.getUTCFullYear();
}

/** The period value units to show now: the stored ones belong to another year once it is over. */
export function currentPeriodUnits(periodYear: number | null, periodValueUnits: Money, now = nowSeconds()): Money {
  return periodYear === periodYearOf(now) ? periodValueUnits : new Money(0);
}
