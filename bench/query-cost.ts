/**
 * Client-side cost of one contact read, Prisma against raw pg, sequential on one connection:
 * `DATABASE_URL=... npx tsx bench/query-cost.ts` against a database that holds contacts (e.g.
 * during or after `npm run bench` on a throw-away database). Shows what a round trip and
 * Prisma's query layer cost, independent of HTTP (docs/benchmarks.md).
 */
import { Pool } from 'pg';
import { createPrismaClient } from '../src/db/client';

const N = Number(process.env.BENCH_CALLS ?? 1500);

async function main() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must name a database with contacts');
  const db = createPrismaClient(url, { poolSize: 1 });
  const pool = new Pool({ connectionString: url, max: 1 });
  const row = (await pool.query<{ id: string }>('SELECT id::text AS id FROM contacts LIMIT 1')).rows[0];
  if (!row) throw new Error('no contacts in this database');
  const { id } = row;
  const cases: Array<[string, () => Promise<unknown>]> = [
    ['pg: contact row by id', () => pool.query('SELECT * FROM contacts WHERE id = $1', [id])],
    ['prisma: findUnique', () => db.contact.findUnique({ where: { id } })],
    [
      'prisma: findUnique + 3 references + 4 lists (as GET /contacts/{id})',
      () => db.contact.findUnique({ where: { id }, include: { category: true, kycProfile: true, industry: true, addresses: true, phones: true, emails: true, customFields: true } }),
    ],
    [
      'pg: the same in one statement (json_agg subqueries)',
      () =>
        pool.query(
          `SELECT c.*,
             (SELECT json_agg(a) FROM contact_addresses a WHERE a.contact_id = c.id) AS addresses,
             (SELECT json_agg(p) FROM contact_phones p WHERE p.contact_id = c.id) AS phones,
             (SELECT json_agg(e) FROM contact_emails e WHERE e.contact_id = c.id) AS emails,
             (SELECT json_agg(f) FROM contact_custom_fields f WHERE f.contact_id = c.id) AS custom_fields
           FROM contacts c WHERE c.id = $1`,
          [id],
        ),
    ],
  ];
  for (const [name, fn] of cases) {
    for (let i = 0; i < 200; i++) await fn(); // warm-up
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await fn();
    const cpu = process.cpuUsage(cpu0);
    const wall = (performance.now() - t0) / N;
    console.log(`${name}: ${wall.toFixed(3)} ms wall, ${((cpu.user + cpu.system) / 1000 / N).toFixed(3)} ms client CPU per call`);
  }
  await db.$disconnect();
  await pool.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
