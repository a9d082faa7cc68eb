// The analytics scenario of `npm run bench` (`BENCH_ONLY=analytics`; docs/analytics.md "Speed"):
// BENCH_ANALYTICS_PURCHASES purchases (default 1,000,000) evenly over the last 365 days, seeded straight
// through SQL with generate_series across 3 merchants with 2 venues each and
// BENCH_ANALYTICS_CONTACTS contacts (default 20,000, each with an account and a wallet created
// during the year); each posted purchase has one product line of 1-3 items and one AWARD
// transaction, 2 % are cancelled. Then GET /organisations/{id}/analytics for random 30-day
// windows by day (the whole organisation with every metric, and with purchases alone; one
// merchant with every metric) and GET /contacts/{id}/analytics for random contacts, at each of
// BENCH_ANALYTICS_CONNECTIONS connections (default "1,4": one dashboard, a few at once on 2 cores).
import { Pool } from 'pg';
import type { LoadResult, LoadSpec } from './load';
import { pick, rng } from './seed';

export interface AnalyticsSeed {
  organisationId: string;
  merchants: string[];
  contacts: string[];
  purchases: number;
  seconds: number;
}

const MERCHANTS = 3;
const VENUES_PER_MERCHANT = 2;
const BATCH = 100_000;

/** A UUIDv7 of instant `at` (SQL), as the service's newId() makes them: time-ordered ids keep a window's rows together in the indexes. */
const uuid7 = (at: string) => `(lpad(to_hex(floor(extract(epoch FROM ${at}) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3) || '8' || substr(md5(random()::text), 1, 15))::uuid`;

/** Network, contacts, accounts, wallets, then purchases with their product lines and awards, in batches. */
export async function seedAnalytics(databaseUrl: string, organisationId: string, purchases: number, contacts: number, log: (line: string) => void): Promise<AnalyticsSeed> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const started = Date.now();
  const db = await pool.connect();
  try {
    const unit = async (name: string, type: string, parentId: string | null) => {
      const { rows } = await db.query<{ id: string }>(
        `INSERT INTO network_units (id, organisation_id, code, name, type, parent_id, updated_at) VALUES (gen_random_uuid(), $1, $2, $2, $3, $4, now()) RETURNING id`,
        [organisationId, name, type, parentId],
      );
      return rows[0].id;
    };
    const merchants: string[] = [];
    const venues: string[] = [];
    for (let m = 0; m < MERCHANTS; m++) {
      const id = await unit(`Bench merchant ${m}`, 'MERCHANT', null);
      merchants.push(id);
      for (let v = 0; v < VENUES_PER_MERCHANT; v++) venues.push(await unit(`Bench venue ${m}.${v}`, 'VENUE', id));
    }
    // Buyer n: contact, primary account and wallet, numbered so purchases can pick one by number.
    await db.query(`CREATE TEMP TABLE bench_buyers AS
      SELECT n, gen_random_uuid() AS contact_id, gen_random_uuid() AS account_id, gen_random_uuid() AS wallet_id,
        now() - (n::float8 / $1) * interval '365 days' AS created_at
      FROM generate_series(1, $1::int) n`, [contacts]);
    await db.query(`INSERT INTO contacts (id, organisation_id, code, contact_type, first_name, last_name, created_at, updated_at)
      SELECT contact_id, $1, 'AN' || n, 'PERSON', 'Ana', 'Bench ' || n, created_at, created_at FROM bench_buyers`, [organisationId]);
    await db.query(`INSERT INTO accounts (id, organisation_id, contact_id, number, is_primary, currency_code, created_at, updated_at)
      SELECT account_id, $1, contact_id, lpad(n::text, 10, '0'), true, 'EUR', created_at, created_at FROM bench_buyers`, [organisationId]);
    await db.query(`INSERT INTO wallets (id, organisation_id, account_id, code, currency_code, created_at, updated_at)
      SELECT wallet_id, $1, account_id, lpad(n::text, 16, '0'), 'EUR', created_at, created_at FROM bench_buyers`, [organisationId]);
    const { rows: [offer] } = await db.query<{ id: string }>(`WITH scheme AS (
        INSERT INTO reward_schemes (id, organisation_id, name, sign_up_option, updated_at) VALUES (gen_random_uuid(), $1, 'Bench club', 'OPEN', now()) RETURNING id)
      INSERT INTO reward_offers (id, organisation_id, scheme_id, name, award_type, award_value, updated_at)
      SELECT gen_random_uuid(), $1, id, 'One back', 'FIXED', 1, now() FROM scheme RETURNING id`, [organisationId]);
    log(`  seeded ${merchants.length + venues.length} units and ${contacts} contacts with an account and a wallet each`);
    for (let first = 1; first <= purchases; first += BATCH) {
      const last = Math.min(purchases, first + BATCH - 1);
      // Purchase g: buyer 1 + g mod contacts, merchant g mod 3, at one of its venues 3 times in 5,
      // performed in the order written (as a till posts them), so a window's rows sit together.
      // Product line and award in the same statement (data-modifying CTEs).
      await db.query(`WITH p AS (
          INSERT INTO purchases (id, organisation_id, reference_number, contact_id, account_id, wallet_id, performed_on, currency_code,
            net_amount, tax_amount, total_amount, value_units, merchant_unit_id, outlet_unit_id, life_cycle_state, created_by, created_at, product_quantity)
          SELECT ${uuid7('at')}, $1, 'AB' || g, b.contact_id, b.account_id, b.wallet_id, at, 'EUR', 8.5, 1.5, 10, 10,
            ($4::uuid[])[1 + g % ${MERCHANTS}],
            CASE WHEN g % 5 < 3 THEN ($5::uuid[])[1 + (g % ${MERCHANTS}) * ${VENUES_PER_MERCHANT} + (g / ${MERCHANTS}) % ${VENUES_PER_MERCHANT}] END,
            CASE WHEN g % 50 = 0 THEN 'CANCELLED' ELSE 'POSTED' END, 'bench', at, 1 + g % 3
          FROM (SELECT g, now() - (1 - g::float8 / $8) * interval '365 days' - random() * interval '1 hour' AS at FROM generate_series($2::int, $3::int) g) s
          JOIN bench_buyers b ON b.n = 1 + g % $6::int
          RETURNING id, contact_id, account_id, wallet_id, performed_on, life_cycle_state, product_quantity),
        lines AS (
          INSERT INTO purchase_products (id, organisation_id, purchase_id, position, sku, net_amount, tax_amount, total_amount, quantity)
          SELECT ${uuid7('p.performed_on')}, $1, p.id, 0, 'SKU', 8.5, 1.5, 10, p.product_quantity FROM p)
        INSERT INTO wallet_transactions (id, organisation_id, contact_id, account_id, wallet_id, classification, life_cycle_state, amount,
          description, transaction_date, created_by, purchase_id, reward_offer_id, created_at)
        SELECT ${uuid7('p.performed_on')}, $1, p.contact_id, p.account_id, p.wallet_id, 'AWARD', 'POSTED', 1, 'One back', p.performed_on, 'bench', p.id, $7, p.performed_on
        FROM p WHERE p.life_cycle_state = 'POSTED'`,
      [organisationId, first, last, merchants, venues, contacts, offer.id, purchases]);
      log(`  seeded ${last} purchases`);
    }
    await db.query('VACUUM ANALYZE purchases');
    await db.query('VACUUM ANALYZE purchase_products');
    await db.query('VACUUM ANALYZE wallet_transactions');
    await db.query('VACUUM ANALYZE wallets');
    const ids = await db.query<{ id: string }>('SELECT contact_id AS id FROM bench_buyers ORDER BY n');
    return { organisationId, merchants, contacts: ids.rows.map((r) => r.id), purchases, seconds: (Date.now() - started) / 1000 };
  } finally {
    db.release();
    await pool.end();
  }
}

/** The measured requests: random 30-day windows ending within the seeded year, random contacts; each at every number of connections. */
export function analyticsSpecs(base: string, key: string, seed: AnalyticsSeed, connectionCounts: number[], seconds: number): LoadSpec[] {
  return connectionCounts.flatMap((connections) => specsAt(base, key, seed, connections, seconds));
}

function specsAt(base: string, key: string, seed: AnalyticsSeed, connections: number, seconds: number): LoadSpec[] {
  const headers = { api_key: key };
  const basePath = new URL(base).pathname;
  const random = rng(17);
  const now = Math.floor(Date.now() / 1000);
  const window = () => {
    const to = now - Math.floor(random() * 335 * 86400);
    return `from=${to - 30 * 86400 + 1}&to=${to}`;
  };
  const organisation = (name: string, id: string, query: string): LoadSpec => ({
    name, url: `${base}/organisations/${id}/analytics?${window()}${query}`, connections, seconds, headers,
    next: () => ({ path: `${basePath}/organisations/${id}/analytics?${window()}${query}` }),
  });
  return [
    organisation(`GET /organisations/{id}/analytics: organisation, all metrics, 30 days by day (${connections} conn.)`, seed.organisationId, ''),
    organisation(`GET /organisations/{id}/analytics: organisation, purchases, 30 days by day (${connections} conn.)`, seed.organisationId, '&metrics=purchases'),
    organisation(`GET /organisations/{id}/analytics: one merchant, all metrics, 30 days by day (${connections} conn.)`, seed.merchants[0], ''),
    {
      name: `GET /contacts/{id}/analytics (${connections} conn.)`, url: `${base}/contacts/${seed.contacts[0]}/analytics`, connections, seconds, headers,
      next: () => ({ path: `${basePath}/contacts/${pick(random, seed.contacts)}/analytics` }),
    },
  ];
}

export function printAnalytics(results: LoadResult[], seed: AnalyticsSeed, log: (line: string) => void): void {
  log(`Seeded ${seed.purchases} purchases (+ a product line and an award each), ${seed.contacts.length} contacts in ${seed.seconds.toFixed(0)} s.`);
  log('');
  log('| request | req/s | p50 ms | p95 ms | p99 ms | non-2xx | aim p95 < 200 ms |');
  log('|---|---:|---:|---:|---:|---:|---|');
  for (const r of results) {
    log(`| ${r.name.replace('GET ', '')} | ${Math.round(r.perSecond)} | ${Math.round(r.p50)} | ${Math.round(r.p95)} | ${Math.round(r.p99)} | ${r.non2xx + r.errors} | ${r.p95 < 200 && !r.non2xx ? 'met' : 'MISSED'} |`);
  }
}
