/**
 * Reproduction for docs/benchmarks.md "Embedded database under concurrency": many pg
 * connections to the embedded database's socket server, each running parameterised queries
 * (extended protocol) whose answer it can check. On PostgreSQL every answer is right; any wrong
 * answer or protocol error here means connections' statements were interleaved.
 * `npx tsx bench/embedded-interleave.ts` (BENCH_CONNECTIONS, default 20; BENCH_WORKERS; BENCH_SECONDS, 10;
 * BENCH_CASES, default small,big,tx,named: add statements over 64 KiB, interactive transactions, and
 * named prepared statements that every connection prepares under the same names (src/db/sql.ts),
 * with now and then a DEALLOCATE ALL that drops them all from the shared backend).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'pg';
import { startEmbeddedDatabase } from '../src/db/embedded';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Concurrent callers; every fourth runs transactions. More callers than connections queue in the pool. */
const WORKERS = Number(process.env.BENCH_WORKERS ?? Math.max(4, CONNECTIONS));
const CASES = (process.env.BENCH_CASES ?? 'small,big,tx,named').split(',');
const TX = CASES.includes('tx');
const BIG = CASES.includes('big');
const NAMED = CASES.includes('named');
const PAD = 'x'.repeat(Number(process.env.BENCH_PAD ?? 100_000));

async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-interleave-'));
  const embedded = await startEmbeddedDatabase(dir, { maxConnections: CONNECTIONS + 5 });
  const pool = new Pool({ connectionString: process.env.DATABASE_URL ?? embedded.url, max: CONNECTIONS });
  let ok = 0;
  let wrong = 0;
  const errors = new Map<string, number>();
  const deadline = Date.now() + SECONDS * 1000;
  // Two statement shapes with different columns, so a mix-up shows as a wrong answer.
  const worker = async (w: number) => {
    for (let i = 0; Date.now() < deadline; i++) {
      const n = w * 1_000_000 + i;
      try {
        if (TX && w % 4 === 3) {
          // An interactive transaction, as Prisma's $transaction runs one.
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            const r = await client.query<{ v: number }>('SELECT $1::int * 2 AS v', [n]);
            await client.query('COMMIT');
            if (r.rows.length === 1 && r.rows[0].v === n * 2) ok++;
            else wrong++;
          } finally {
            client.release();
          }
        } else if (NAMED && w % 4 === 2) {
          // Every connection prepares these two names; each is a different statement.
          if (i % 500 === 499) await pool.query('DEALLOCATE ALL');
          if (i % 97 === 96) {
            // A value the statement refuses at Bind: an error of its own, the name still prepared.
            const refused = await pool.query({ name: 'interleave_plus', text: 'SELECT $1::int + 3 AS v', values: ['x'] }).then(() => null, (e: { code?: string }) => e.code);
            if (refused === '22P02') ok++;
            else wrong++;
            continue;
          }
          const named = i % 2 === 0
            ? await pool.query<{ v: number }>({ name: 'interleave_plus', text: 'SELECT $1::int + 3 AS v', values: [n] })
            : await pool.query<{ v: number }>({ name: 'interleave_times', text: 'SELECT $1::int * 3 AS v', values: [n] });
          if (named.rows.length === 1 && named.rows[0].v === (i % 2 === 0 ? n + 3 : n * 3)) ok++;
          else wrong++;
        } else if (BIG && i % 3 === 0) {
          // A statement larger than one socket read, as long Prisma queries can be.
          const r = await pool.query<{ v: number }>(`SELECT $1::int + 1 AS v /* ${PAD} */`, [n]);
          if (r.rows.length === 1 && r.rows[0].v === n + 1) ok++;
          else wrong++;
        } else if (i % 2 === 0) {
          const r = await pool.query<{ v: number }>('SELECT $1::int + 1 AS v', [n]);
          if (r.rows.length === 1 && r.rows[0].v === n + 1) ok++;
          else wrong++;
        } else {
          const r = await pool.query<{ a: string; b: string }>('SELECT $1::text AS a, repeat($2::text, 200) AS b', [`w${n}`, 'x']);
          if (r.rows.length === 1 && r.rows[0].a === `w${n}` && r.rows[0].b.length === 200) ok++;
          else wrong++;
        }
      } catch (err) {
        const key = (err as Error).message.slice(0, 80);
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
    }
  };
  const progress = setInterval(() => console.log(`  ${ok} right, ${wrong} wrong, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors`), 1000);
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  clearInterval(progress);
  await pool.end();
  await embedded.close();
  rmSync(dir, { recursive: true, force: true });
  console.log(`${CONNECTIONS} connections, ${WORKERS} callers, ${SECONDS} s: ${ok} right answers, ${wrong} wrong answers`);
  for (const [msg, count] of errors) console.log(`  ${count} x error: ${msg}`);
  process.exit(wrong || errors.size ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
