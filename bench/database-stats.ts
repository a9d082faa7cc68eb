// What the database did over a run: commits (pg_stat_database.xact_commit of the database), rows
// written (n_tup_ins + n_tup_upd + n_tup_del over pg_stat_user_tables) and, on a PostgreSQL of
// this machine, the CPU of its processes from /proc. PostgreSQL's cumulative statistics reach
// these views when a backend flushes them (at the latest ~10 s after it goes idle): read them
// after a quiet spell (bench/engine.ts BENCH_ENGINE_SETTLE_SECONDS).
import { readdirSync } from 'node:fs';
import { Client } from 'pg';
import { CLOCK_TICKS_MS, procStat } from './rss';

export interface DatabaseCounters {
  commits: number;
  rowsWritten: number;
}

export interface DatabaseProbe {
  counters(): Promise<DatabaseCounters>;
  /** The postmaster: the parent of this probe's backend (PostgreSQL on this machine only). */
  postmasterPid(): Promise<number | undefined>;
  close(): Promise<void>;
}

export async function openDatabaseProbe(url: string): Promise<DatabaseProbe> {
  const client = new Client({ connectionString: url });
  await client.connect();
  return {
    async counters() {
      const { rows } = await client.query<{ commits: string; rows_written: string }>(`SELECT
        (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
        (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables) AS rows_written`);
      return { commits: Number(rows[0].commits), rowsWritten: Number(rows[0].rows_written) };
    },
    async postmasterPid() {
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const ppid = procStat(`/proc/${rows[0].pid}/stat`)?.[1];
      return ppid === undefined ? undefined : Number(ppid);
    },
    close: () => client.end(),
  };
}

/**
 * CPU ms of PostgreSQL's work: every process whose parent is the postmaster (backends and
 * background workers), plus what the postmaster reaped from children that ended (cutime +
 * cstime), so a pooled connection closed during a run still counts.
 */
export function postgresCpuMs(postmaster: number): number {
  let ticks = 0;
  const own = procStat(`/proc/${postmaster}/stat`);
  if (own) ticks += Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = procStat(`/proc/${entry}/stat`);
    if (f && Number(f[1]) === postmaster) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks * CLOCK_TICKS_MS;
}
