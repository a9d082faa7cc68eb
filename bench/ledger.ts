/**
 * Ledger benchmark: `npm run bench:ledger` (issue 7, part 8). Not part of the tests. Needs
 * DATABASE_URL (a throw-away PostgreSQL database: pgbench creates its tables there).
 *
 * 1. pgbench: single-row UPDATE transactions (`UPDATE pgbench_accounts SET abalance = abalance +
 *    :delta WHERE aid = :aid`) at 1, 10 and 50 clients on the same database, TPS each.
 * 2. The service (a child process, as bench/contacts.ts runs it): POST /journals credits spread
 *    over BENCH_WALLETS wallets at 1, 10 and 50 connections; journals/s, p50/p99, server CPU.
 * 3. 50 connections debiting ONE wallet that holds 500.00 by 1.00 each: exactly 500 succeed,
 *    the rest answer 409, the balance ends at 0, and the ledger check finds nothing.
 *
 * Knobs: BENCH_SECONDS (8), BENCH_WALLETS (200), BENCH_API_ONLY is not used (one process),
 * BENCH_PROFILE=1 (a CPU profile of the service during the 50-client run, into ./bench-profiles).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPrismaClient } from '../src/db/client';
import { checkLedger } from '../src/domain/money/ledger/check';
import { createApiKey } from '../src/domain/identity/api-keys';
import { createOrganisation } from '../src/domain/identity/organisations';
import { startChild } from './children';
import { postJson } from './http';
import { runLoad, type LoadResult } from './load';

const env = process.env;
const SECONDS = Number(env.BENCH_SECONDS ?? 8);
const WALLETS = Number(env.BENCH_WALLETS ?? 200);
const CLIENTS = [1, 10, 50];
const log = (line: string) => process.stdout.write(`${line}\n`);
type Stats = { cpuMicros: number; statements?: number };

function pgbench(url: string): Map<number, number> {
  const script = path.join(mkdtempSync(path.join(os.tmpdir(), 'pgbench-')), 'update.sql');
  writeFileSync(script, '\\set aid random(1, 100000 * :scale)\n\\set delta random(-5000, 5000)\nUPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;\n');
  execFileSync('pgbench', ['-i', '-s', '1', '-q', url], { stdio: 'ignore' });
  const tps = new Map<number, number>();
  for (const clients of CLIENTS) {
    const out = execFileSync('pgbench', ['-n', '-c', String(clients), '-j', String(Math.min(clients, 2)), '-T', String(SECONDS), '-f', script, url], { encoding: 'utf8' });
    tps.set(clients, Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0));
    log(`  pgbench ${clients} clients: ${tps.get(clients)!.toFixed(0)} TPS`);
  }
  return tps;
}

async function main() {
  const url = env.DATABASE_URL;
  if (!url) throw new Error('bench:ledger needs DATABASE_URL (a throw-away PostgreSQL database)');
  log('pgbench, single-row UPDATE:');
  const tps = pgbench(url);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-ledger-'));
  const service = await startChild<{ url: string; databaseUrl: string }>('service-child.ts', {
    PATH: env.PATH, HOME: env.HOME, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', TEMPORAL_EMBEDDED_PORT: '0',
    LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '1000000', DATABASE_POOL_SIZE: '50', DATABASE_URL: url,
  });
  const db = createPrismaClient(url, { poolSize: 2 });
  try {
    const org = await createOrganisation(db, `Ledger bench ${new Date().toISOString()}`);
    const { secret } = await createApiKey(db, { organisationId: org.id, kind: 'SECRET', name: 'bench', createdBy: 'bench' });
    const headers = { api_key: secret, 'content-type': 'application/json' };
    const base = service.ready.url;
    const post = (route: string, body: object) => postJson(`${base}${route}`, headers, body);
    await post('/contacts', { contact_type: 'PERSON', code: 'LEDGER-BENCH', first_name: 'Bench', last_name: 'Ledger', accounts: [{ name: 'Main', is_primary: true }] });
    const account = await db.account.findFirstOrThrow({ where: { organisationId: org.id } });
    const wallets: string[] = [];
    for (let i = 0; i < WALLETS; i++) wallets.push(await post(`/accounts/${account.id}/wallets`, {}));
    log(`Service at ${base}; ${WALLETS} wallets`);

    const results: Array<{ clients: number; r: LoadResult; cpu: number; sql: number }> = [];
    for (const clients of CLIENTS) {
      let n = 0;
      const spec = { name: `POST /journals (${clients})`, url: `${base}/journals`, method: 'POST' as const, connections: clients, seconds: SECONDS, headers,
        next: () => ({ body: JSON.stringify({ wallet_id: wallets[n++ % wallets.length], amount: '1.25', type: 'CREDIT' }) }) };
      await runLoad({ ...spec, seconds: 2 });
      const profile = env.BENCH_PROFILE === '1' && clients === CLIENTS[CLIENTS.length - 1];
      const before = await service.ask<Stats>({ cmd: 'stats' });
      if (profile) await service.ask({ cmd: 'profile-start' });
      const r = await runLoad(spec);
      if (profile) {
        const file = path.resolve('bench-profiles', `journals_${clients}.cpuprofile`);
        mkdirSync(path.dirname(file), { recursive: true });
        await service.ask({ cmd: 'profile-stop', file });
        log(`  CPU profile: ${file} (summary: npx tsx bench/profile-summary.ts ${path.relative(process.cwd(), file)})`);
      }
      const after = await service.ask<Stats>({ cmd: 'stats' });
      const per = (a: number, b: number) => (a - b) / Math.max(1, r.requests);
      results.push({ clients, r, cpu: per(after.cpuMicros, before.cpuMicros) / 1000, sql: per(after.statements ?? 0, before.statements ?? 0) });
    }

    const hammered = await post(`/accounts/${account.id}/wallets`, {});
    await post('/journals', { wallet_id: hammered, amount: 500, type: 'CREDIT' });
    const hammer = await runLoad({ name: 'one wallet', url: `${base}/journals`, method: 'POST', connections: 50, seconds: SECONDS, headers,
      next: () => ({ body: JSON.stringify({ wallet_id: hammered, amount: 1, type: 'DEBIT' }) }) });
    const wallet = await db.wallet.findUniqueOrThrow({ where: { id: hammered } });
    const debits = await db.walletTransaction.count({ where: { walletId: hammered, classification: 'DEBIT' } });
    const violations = await checkLedger(db, org.id);

    log('');
    log(`PostgreSQL 15, ${os.cpus().length} CPUs shared by pgbench/autocannon, the service and PostgreSQL; ${SECONDS} s per run.`);
    log('| clients | pgbench TPS | journals/s | ratio | p50 ms | p99 ms | errors + non-2xx | SQL/journal | service CPU ms/journal |');
    log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const { clients, r, cpu, sql } of results) {
      const ratio = r.perSecond / (tps.get(clients) || 1);
      log(`| ${clients} | ${tps.get(clients)!.toFixed(0)} | ${r.perSecond.toFixed(0)} | ${(ratio * 100).toFixed(0)}% | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors + r.non2xx} | ${sql.toFixed(1)} | ${cpu.toFixed(2)} |`);
    }
    log('');
    log(`One wallet, 50 connections debiting 1.00 from 500.00 for ${SECONDS} s: ${debits} debits accepted, ${hammer.statusCodes['409'] ?? 0} refused (409), balance ${wallet.balance.toFixed()}, ledger check ${violations.length ? `FAILED: ${JSON.stringify(violations.slice(0, 3))}` : 'holds'}.`);
    log(`Aim (issue 23): journals/s >= 25% of pgbench TPS at 50 clients (${(((results.at(-1)?.r.perSecond ?? 0) / (tps.get(50) || 1)) * 100).toFixed(0)}%); zero overspend (${wallet.balance.isNegative() || debits > 500 ? 'OVERSPENT' : 'no overspend'}).`);
  } finally {
    await db.$disconnect();
    await service.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
