// Bulk seeding of contacts straight through SQL: one INSERT ... SELECT FROM unnest(arrays) per
// table and batch, so a batch of 5,000 costs four statements instead of 20,000 API calls.
// Rows mirror what POST /contacts writes (contact, primary phone, e-mail and address), and
// search_text comes from the domain's own builder, so search behaves as for real contacts.
import { Pool, type PoolClient } from 'pg';
import { buildSearchText } from '../src/domain/contacts/search-text';
import { newId } from '../src/domain/ids';

const FIRST = ['ann', 'ben', 'carla', 'david', 'eva', 'frank', 'greta', 'hugo', 'ines', 'jonas', 'karin', 'lukas', 'maria', 'nils', 'olga', 'paul', 'rita', 'simon', 'tanja', 'uwe', 'vera', 'walter', 'xenia', 'yusuf', 'zoe', 'amir', 'bianca', 'chen', 'dora', 'emil'];
const LAST_HEAD = ['ander', 'berg', 'carl', 'dahl', 'eck', 'fisch', 'gold', 'haber', 'iver', 'jakob', 'kessel', 'lind', 'morgen', 'nord', 'olden', 'peder', 'quast', 'ros', 'stein', 'thal', 'ulm', 'vogel', 'wester', 'zimmer', 'brandt', 'holm', 'krog', 'lauten', 'mohr', 'sand'];
const LAST_TAIL = ['sen', 'mann', 'berg', 'strom', 'feld', 'hof', 'ner', 'holz', 'dorf', 'quist', 'by', 'gaard', 'wald', 'ström', 'ton', 'rich', 'kamp', 'meier', 'schmidt', 'wick'];

export interface SeedResult {
  organisationId: string;
  ids: string[];
  /** Name fragments that occur in the data (whole last names and their first five letters). */
  searchTerms: string[];
  seconds: number;
}

/** Deterministic pseudo-random numbers (mulberry32), so two runs seed the same names. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, list: readonly T[]): T {
  return list[Math.floor(random() * list.length)];
}

export function lastNames(): string[] {
  return LAST_HEAD.flatMap((h) => LAST_TAIL.map((t) => h + t));
}

export async function seedContacts(databaseUrl: string, organisationId: string, count: number, batchSize: number, log: (line: string) => void): Promise<SeedResult> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const random = rng(42);
  const last = lastNames();
  const ids: string[] = [];
  const started = process.hrtime.bigint();
  const client = await pool.connect();
  try {
    for (let offset = 0; offset < count; offset += batchSize) {
      const n = Math.min(batchSize, count - offset);
      const rows = Array.from({ length: n }, (_, i) => contactRow(random, last, offset + i));
      await insertBatch(client, organisationId, rows);
      ids.push(...rows.map((r) => r.id));
      if ((offset / batchSize) % 4 === 3) log(`  seeded ${offset + n} contacts`);
    }
    await client.query('ANALYZE contacts, contact_phones, contact_emails, contact_addresses');
  } finally {
    client.release();
    await pool.end();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const searchTerms = last.flatMap((name) => [name, name.slice(0, 5)]);
  return { organisationId, ids, searchTerms, seconds };
}

interface Row {
  id: string;
  code: string;
  first: string;
  last: string;
  phone: string;
  email: string;
  createdAt: Date;
}

const TWO_YEARS_MS = 2 * 365 * 24 * 3600 * 1000;

function contactRow(random: () => number, last: string[], n: number): Row {
  const first = pick(random, FIRST);
  const surname = pick(random, last);
  const digits = String(Math.floor(random() * 1e7)).padStart(7, '0');
  return {
    id: newId(),
    code: `S${String(n).padStart(7, '0')}`,
    first: first.charAt(0).toUpperCase() + first.slice(1),
    last: surname.charAt(0).toUpperCase() + surname.slice(1),
    phone: `+44 20 ${digits.slice(0, 3)} ${digits.slice(3)}`,
    email: `${first}.${surname}.${n}@example.com`,
    createdAt: new Date(Date.now() - Math.floor(random() * TWO_YEARS_MS)),
  };
}

async function insertBatch(client: PoolClient, organisationId: string, rows: Row[]): Promise<void> {
  const col = <K extends keyof Row>(k: K) => rows.map((r) => r[k]);
  const ids = col('id');
  const created = col('createdAt');
  const searchText = rows.map((r) =>
    buildSearchText({ code: r.code, companyName: null, firstName: r.first, middleName: null, lastName: r.last, loyaltyIdentifier: null }, [{ number: r.phone }]),
  );
  await client.query('BEGIN');
  try {
    await client.query(
      `INSERT INTO contacts (id, organisation_id, code, contact_type, first_name, last_name, search_text, last_activity_at, created_at, updated_at)
       SELECT u.id, $1::uuid, u.code, 'PERSON', u.first, u.last, u.search, u.created, u.created, u.created
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[]) AS u(id, code, first, last, search, created)`,
      [organisationId, ids, col('code'), col('first'), col('last'), searchText, created],
    );
    await client.query(
      `INSERT INTO contact_phones (id, organisation_id, contact_id, phone_type, is_primary, country_code, number, created_at, updated_at)
       SELECT u.id, $1::uuid, u.contact_id, 'MOBILE', true, 'GBR', u.number, u.created, u.created
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[]) AS u(id, contact_id, number, created)`,
      [organisationId, rows.map(() => newId()), ids, col('phone'), created],
    );
    await client.query(
      `INSERT INTO contact_emails (id, organisation_id, contact_id, email_type, is_primary, email_address, created_at, updated_at)
       SELECT u.id, $1::uuid, u.contact_id, 'PERSONAL', true, u.email, u.created, u.created
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[]) AS u(id, contact_id, email, created)`,
      [organisationId, rows.map(() => newId()), ids, col('email'), created],
    );
    await client.query(
      `INSERT INTO contact_addresses (id, organisation_id, contact_id, address_type, is_primary, address_line_1, town_city, postal_code, country_code, created_at, updated_at)
       SELECT u.id, $1::uuid, u.contact_id, 'HOME', true, u.line1, 'London', 'SW1A 1AA', 'GBR', u.created, u.created
       FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[]) AS u(id, contact_id, line1, created)`,
      [organisationId, rows.map(() => newId()), ids, rows.map((r, i) => `${(i % 200) + 1} ${r.last} Street`), created],
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  }
}
