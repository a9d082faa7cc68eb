// Tenancy by construction (src/db/tenancy.ts): the client a request gets cannot read or write
// another organisation's rows, even when the query forgets the organisation.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createPrismaClient, type Db } from '../../src/db/client';
// Type only: importing the module would load PGlite, which jest cannot run in-process.
import type { DatabaseInfo } from '../../src/db/embedded';
import { Pool } from 'pg';
import { pgSql, txSql } from '../../src/db/sql';
import { GLOBAL_MODELS, scopedClient, TenancyViolation } from '../../src/db/tenancy';
import { newId } from '../../src/domain/ids';
import { testState } from '../support/state';

let root: Db;
const mine = newId();
const theirs = newId();
let theirContact: string;

beforeAll(async () => {
  const url = process.env.DATABASE_URL ?? (JSON.parse(readFileSync(path.join(testState().dataDir, 'database.json'), 'utf8')) as DatabaseInfo).url;
  root = createPrismaClient(url, { poolSize: 1 });
  theirContact = newId();
  await scopedClient(root, theirs).contact.create({ data: { id: theirContact, organisationId: theirs, contactType: 'PERSON', code: 'SHARED-CODE', searchText: '' } });
  await scopedClient(root, mine).contact.create({ data: { id: newId(), organisationId: mine, contactType: 'PERSON', code: 'SHARED-CODE', searchText: '' } });
});

afterAll(async () => {
  await root?.$disconnect();
});

test('a query that forgets the organisation sees only its own', async () => {
  const db = scopedClient(root, mine);
  const found = await db.contact.findMany({ where: { code: 'SHARED-CODE' } });
  expect(found.map((c) => c.organisationId)).toEqual([mine]);
  expect(await db.contact.findUnique({ where: { id: theirContact } })).toBeNull();
  expect(await db.contact.count()).toBe(1);
  // A where naming the other organisation is refused, not obeyed.
  await expect(db.contact.findMany({ where: { organisationId: theirs } })).rejects.toBeInstanceOf(TenancyViolation);
});

test("another organisation's row cannot be changed or deleted", async () => {
  const db = scopedClient(root, mine);
  await expect(db.contact.update({ where: { id: theirContact }, data: { notes: 'x' } })).rejects.toMatchObject({ code: 'P2025' });
  expect((await db.contact.updateMany({ where: { id: theirContact }, data: { notes: 'x' } })).count).toBe(0);
  expect((await db.contact.deleteMany({ where: { id: theirContact } })).count).toBe(0);
  const untouched = await scopedClient(root, theirs).contact.findUniqueOrThrow({ where: { id: theirContact } });
  expect(untouched.notes).toBeNull();
});

test('creates are stamped with the organisation; naming another one is refused', async () => {
  const db = scopedClient(root, mine);
  const stamped = await db.contactCategory.create({ data: { id: newId(), name: 'Stamped' } as never });
  expect(stamped.organisationId).toBe(mine);
  await expect(db.contactCategory.create({ data: { id: newId(), organisationId: theirs, name: 'Smuggled' } })).rejects.toBeInstanceOf(TenancyViolation);
  await expect(db.contactCategory.createMany({ data: [{ id: newId(), organisationId: theirs, name: 'Smuggled' }] })).rejects.toBeInstanceOf(TenancyViolation);
  expect(await scopedClient(root, theirs).contactCategory.count({ where: { name: 'Smuggled' } })).toBe(0);
});

test('raw SQL without the organisation as a parameter is refused; with it, it runs', async () => {
  const db = scopedClient(root, mine);
  await expect(db.$queryRaw`SELECT count(*)::int AS n FROM contacts`).rejects.toBeInstanceOf(TenancyViolation);
  await expect(db.$executeRaw`UPDATE contacts SET notes = 'x' WHERE id = ${theirContact}::uuid`).rejects.toBeInstanceOf(TenancyViolation);
  await expect(db.$queryRawUnsafe('SELECT count(*) FROM contacts')).rejects.toBeInstanceOf(TenancyViolation);
  const rows = await db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM contacts WHERE organisation_id = ${mine}::uuid`;
  expect(rows).toEqual([{ n: 1 }]);
});

test('ctx.sql statements must filter on organisation_id = $1 or insert it, on the pool, in a Prisma transaction and on a pipeline connection alike', async () => {
  const url = process.env.DATABASE_URL ?? (JSON.parse(readFileSync(path.join(testState().dataDir, 'database.json'), 'utf8')) as DatabaseInfo).url;
  const pool = new Pool({ connectionString: url, max: 2 });
  const client = await pool.connect();
  try {
    const count = 'SELECT count(*)::int AS n FROM contacts WHERE organisation_id = $1 AND code = $2';
    for (const sql of [pgSql(pool, mine), txSql(scopedClient(root, mine), mine), pgSql(client, mine)]) {
      expect(await sql.rows(count, ['SHARED-CODE'])).toEqual([{ n: 1 }]);
      await expect(sql.rows('SELECT count(*)::int AS n FROM contacts WHERE code = $2', ['SHARED-CODE'])).rejects.toBeInstanceOf(TenancyViolation);
      // $1 must be the organisation, not merely appear: $10 does not count.
      await expect(sql.rows('SELECT 1 FROM contacts WHERE organisation_id = $10')).rejects.toBeInstanceOf(TenancyViolation);
      // An INSERT must write the organisation column.
      await expect(sql.rows('INSERT INTO contact_categories (id, name) VALUES ($2::uuid, $3)', [newId(), 'x'])).rejects.toBeInstanceOf(TenancyViolation);
    }
  } finally {
    client.release();
    await pool.end();
  }
});

test('transactions of a scoped client are scoped the same way', async () => {
  const seen = await scopedClient(root, mine).$transaction((tx) => tx.contact.findMany({ where: { code: 'SHARED-CODE' } }));
  expect(seen.map((c) => c.organisationId)).toEqual([mine]);
});

test('organisation-less models are out of reach, and every other model is scoped', async () => {
  await expect(scopedClient(root, mine).organisation.findMany()).rejects.toBeInstanceOf(TenancyViolation);
  // The schema decides what is global: exactly the models without an organisationId column.
  const schema = readFileSync(path.join(__dirname, '../../prisma/schema.prisma'), 'utf8');
  const models = [...schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)].map(([, name, body]) => ({ name, owned: /^\s+organisationId\s/m.test(body) }));
  expect(models.length).toBeGreaterThan(10);
  expect(models.filter((m) => !m.owned).map((m) => m.name).sort()).toEqual([...GLOBAL_MODELS].sort());
});
