// Gauges read at each collection (a scrape): the pg pool's connections (semantic conventions'
// db.client.connection.*) and the outbox's backlog. The backlog statement reads the
// (dispatched_at, created_at) index of each table, whose NULL range is the backlog itself: a few
// index pages while the dispatcher keeps up (docs/operations.md "Metrics").
import { metrics } from '@opentelemetry/api';
import type { Pool } from 'pg';
import type { Logger } from '../log';

const BACKLOG = `SELECT 'outbox_events' AS queue, count(*)::int AS size, extract(epoch FROM now() - min(created_at))::float8 AS age
  FROM outbox_events WHERE dispatched_at IS NULL
UNION ALL
SELECT 'workflow_intents', count(*)::int, extract(epoch FROM now() - min(created_at))::float8
  FROM workflow_intents WHERE dispatched_at IS NULL`;

const POOL = { 'db.client.connection.pool.name': 'backoffice' };

/** The pool's gauges; with `backlog`, the outbox's too (the API process: one reading per replica, the same number). */
export function observeDatabase(pool: Pool, max: number, log: Logger, options: { backlog: boolean }): void {
  const meter = metrics.getMeter('backoffice');
  const count = meter.createObservableUpDownCounter('db.client.connection.count', { unit: '{connection}', description: 'Connections of the pool, by state (used, idle)' });
  const pending = meter.createObservableUpDownCounter('db.client.connection.pending_requests', { unit: '{request}', description: 'Callers waiting for a connection of the pool' });
  const limit = meter.createObservableUpDownCounter('db.client.connection.max', { unit: '{connection}', description: 'The most connections the pool opens (DATABASE_POOL_SIZE)' });
  meter.addBatchObservableCallback((result) => {
    result.observe(count, pool.totalCount - pool.idleCount, { ...POOL, 'db.client.connection.state': 'used' });
    result.observe(count, pool.idleCount, { ...POOL, 'db.client.connection.state': 'idle' });
    result.observe(pending, pool.waitingCount, POOL);
    result.observe(limit, max, POOL);
  }, [count, pending, limit]);
  if (!options.backlog) return;

  const size = meter.createObservableGauge('backoffice.outbox.backlog', { unit: '{row}', description: 'Outbox events and workflow intents not yet performed' });
  const age = meter.createObservableGauge('backoffice.outbox.oldest_age', { unit: 's', description: 'Age of the oldest outbox event or workflow intent not yet performed (0: none)' });
  meter.addBatchObservableCallback(async (result) => {
    try {
      const { rows } = await pool.query<{ queue: string; size: number; age: number | null }>(BACKLOG);
      for (const row of rows) {
        result.observe(size, row.size, { 'backoffice.queue': row.queue });
        result.observe(age, Math.max(0, row.age ?? 0), { 'backoffice.queue': row.queue });
      }
    } catch (err) {
      // A scrape while the database is away shows no backlog series rather than failing the scrape.
      log.warn({ err }, 'metrics: the outbox backlog could not be read');
    }
  }, [size, age]);
}
