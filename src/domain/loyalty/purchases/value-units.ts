// Tier progress of the primary account (docs/loyalty.md "Tiers"): a purchase adds its value
// units (its total amount), a cancel or return takes them back. Lifetime units always count;
// period units count in the calendar year the purchase was performed in, while it is the current
// one. The tier is recomputed under the row lock the upsert takes.
import type { OrgSql } from '../../../db/sql';
import { Money, moneyText } from '../../money';
import { periodYearOf, tierProgress } from '../tiers';
import { nowSeconds } from '../../clock';

/**
 * The upsert of the units, answering what the tier needs; the parameters are named so a purchase
 * can run it inside its own insert statement (post.ts).
 */
export function addUnitsStatement(p: { account: string; units: string; performedYear: string; currentYear: string }): string {
  return `INSERT INTO account_rewards (account_id, organisation_id, lifetime_value_units, period_value_units, period_year, updated_at)
VALUES (${p.account}::uuid, $1, ${p.units}::numeric, CASE WHEN ${p.performedYear}::int = ${p.currentYear}::int THEN ${p.units}::numeric ELSE 0 END, ${p.currentYear}::int, now())
ON CONFLICT (account_id) DO UPDATE SET
  lifetime_value_units = account_rewards.lifetime_value_units + ${p.units}::numeric,
  period_value_units = CASE WHEN account_rewards.period_year = ${p.currentYear}::int THEN account_rewards.period_value_units ELSE 0 END
    + CASE WHEN ${p.performedYear}::int = ${p.currentYear}::int THEN ${p.units}::numeric ELSE 0 END,
  period_year = ${p.currentYear}::int, updated_at = now()
RETURNING lifetime_value_units::text AS lifetime, period_value_units::text AS period, reward_tier_id AS "tierId",
  (SELECT COALESCE(json_agg(json_build_object('id', t.id, 'position', t.position, 'periodValueUnits', t.period_value_units::text,
     'lifetimeValueUnits', t.lifetime_value_units::text)), '[]'::json) FROM reward_tiers t WHERE t.organisation_id = $1) AS tiers`;
}

const ADD = addUnitsStatement({ account: '$2', units: '$3', performedYear: '$4', currentYear: '$5' });

const SET_TIER = 'UPDATE account_rewards SET reward_tier_id = $3::uuid WHERE organisation_id = $1 AND account_id = $2::uuid';

type Tier = { id: string; position: number; periodValueUnits: string; lifetimeValueUnits: string };
export type UnitsRow = { lifetime: string; period: string; tierId: string | null; tiers: Tier[] };

/** Adds (or, negative, takes back) the value units of a purchase performed at `performedOn`. */
export async function addValueUnits(sql: OrgSql, accountId: string, units: Money, performedOn: Date, now = nowSeconds()): Promise<void> {
  const [row] = await sql.rows<UnitsRow>(ADD, [accountId, moneyText(units), periodYearOf(performedOn), periodYearOf(now)]);
  await settleTier(sql, accountId, row);
}

/** Moves the account to the tier its units now reach, when that changed. */
export async function settleTier(sql: OrgSql, accountId: string, row: UnitsRow): Promise<void> {
  const tiers = row.tiers.map((t) => ({ ...t, periodValueUnits: new Money(t.periodValueUnits), lifetimeValueUnits: new Money(t.lifetimeValueUnits) }));
  const { tier } = tierProgress(tiers, new Money(row.period), new Money(row.lifetime));
  if ((tier?.id ?? null) !== row.tierId) await sql.rows(SET_TIER, [accountId, tier?.id ?? null]);
}
