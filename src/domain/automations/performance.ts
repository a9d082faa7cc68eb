// How a live automation did (GET /automations/{id}/performance, docs/automations.md "Performance"),
// from the adaptor action records its runs wrote, bucketed by the event's time (the millisecond of
// its UUIDv7 id, as the run history dates runs). The window is a range of event ids, so the index
// (organisation_id, automation_id, event_id) serves every statement.
import type { Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { getAutomation } from './definitions';

const BUCKET_MS = { DAY: 86_400_000, HOUR: 3_600_000 } as const;
export type Granularity = keyof typeof BUCKET_MS;

/** The lowest (or highest) UUIDv7 of a millisecond. */
function uuidAt(ms: number, high: boolean): string {
  const h = ms.toString(16).padStart(12, '0');
  return high ? `${h.slice(0, 8)}-${h.slice(8, 12)}-ffff-ffff-ffffffffffff` : `${h.slice(0, 8)}-${h.slice(8, 12)}-0000-0000-000000000000`;
}

// $2 the automation, $3..$4 the event ids, $5 the bucket's length in ms.
const RECORDS = `WITH r AS (
  SELECT event_id, action_id, adaptor_action, status, created_at,
    ('x' || substr(replace(event_id::text, '-', ''), 1, 12))::bit(48)::bigint AS event_ms
  FROM adaptor_action_records
  WHERE organisation_id = $1 AND automation_id = $2::uuid AND event_id >= $3::uuid AND event_id <= $4::uuid
), b AS (SELECT *, (event_ms / $5::bigint) * $5::bigint / 1000 AS bucket FROM r)`;

const RUNS = `${RECORDS}, runs AS (
  SELECT bucket, CASE WHEN bool_or(status = 'FAILED') THEN 'FAILED' WHEN bool_or(status = 'REJECTED') THEN 'REJECTED'
    WHEN bool_or(status = 'PENDING') THEN 'WAITING_FOR_APPROVAL' WHEN bool_and(status = 'SKIPPED') THEN 'SKIPPED' ELSE 'COMPLETED' END AS state
  FROM b GROUP BY bucket, event_id)
SELECT bucket::bigint AS bucket, state, count(*)::int AS n FROM runs GROUP BY bucket, state`;

const ACTIONS = `${RECORDS}
SELECT bucket::bigint AS bucket, action_id AS id, min(adaptor_action) AS adaptor_action,
  count(*) FILTER (WHERE status <> 'SKIPPED')::int AS matched, count(*) FILTER (WHERE status = 'SKIPPED')::int AS skipped
FROM b GROUP BY bucket, action_id`;

const LATENCY = `${RECORDS}
SELECT bucket::bigint AS bucket,
  percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM created_at) * 1000 - event_ms) / 1000 AS p50,
  percentile_cont(0.95) WITHIN GROUP (ORDER BY extract(epoch FROM created_at) * 1000 - event_ms) / 1000 AS p95
FROM b WHERE status = 'COMPLETED' GROUP BY bucket`;

type Key = string;
const RUN_STATES = ['COMPLETED', 'SKIPPED', 'FAILED', 'REJECTED', 'WAITING_FOR_APPROVAL'] as const;
type Runs = Record<(typeof RUN_STATES)[number], number>;

/**
 * `from`..`to`: epoch seconds, inclusive. A run still going on counts by what it has recorded
 * (COMPLETED so far, or WAITING_FOR_APPROVAL); 404 for an automation the organisation does not have.
 */
export async function automationPerformance(tx: Tx, sql: OrgSql, organisationId: string, automationId: string, from: number, to: number, granularity: Granularity) {
  await getAutomation(tx, organisationId, automationId);
  const values = [automationId, uuidAt(from * 1000, false), uuidAt(to * 1000 + 999, true), BUCKET_MS[granularity]];
  const [runs, actions, latency] = await Promise.all([
    sql.rows<{ bucket: string; state: keyof Runs; n: number }>(RUNS, values),
    sql.rows<{ bucket: string; id: string; adaptor_action: string; matched: number; skipped: number }>(ACTIONS, values),
    sql.rows<{ bucket: string; p50: number | null; p95: number | null }>(LATENCY, values),
  ]);
  const buckets = new Map<Key, { timestamp: number; runs: Runs; actions: Array<{ id: string; adaptor_action: string; matched: number; skipped: number }>; event_to_effect: { p50: number | null; p95: number | null } }>();
  const at = (bucket: string) => {
    let b = buckets.get(bucket);
    if (!b) buckets.set(bucket, (b = { timestamp: Number(bucket), runs: Object.fromEntries(RUN_STATES.map((s) => [s, 0])) as Runs, actions: [], event_to_effect: { p50: null, p95: null } }));
    return b;
  };
  for (const r of runs) at(r.bucket).runs[r.state] += r.n;
  for (const a of actions) at(a.bucket).actions.push({ id: a.id, adaptor_action: a.adaptor_action, matched: a.matched, skipped: a.skipped });
  const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 1000) / 1000);
  for (const l of latency) at(l.bucket).event_to_effect = { p50: round(l.p50), p95: round(l.p95) };
  return {
    automation_id: automationId,
    granularity,
    buckets: [...buckets.values()].sort((a, b) => a.timestamp - b.timestamp).map((b) => ({ ...b, actions: b.actions.sort((x, y) => x.id.localeCompare(y.id)) })),
  };
}
