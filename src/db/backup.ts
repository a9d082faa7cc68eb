// A logical backup of the service's database over an ordinary PostgreSQL connection, so that the
// embedded shape needs no pg_dump (a user's machine has none, and PGlite reports PostgreSQL 18,
// which an older pg_dump refuses). It reads every table in one REPEATABLE READ transaction: one
// snapshot, so the file is the database as it was at one instant. On the embedded database that
// transaction holds the one backend (src/db/pglite-wire.ts), so the service's requests wait for the
// dump: docs/operations.md "Backups" gives the time it takes.
//
// The file is gzip'd text, one record a line, `<kind>\t<json>`: a header (the migrations that
// made the schema, the tables and their columns, the sequences), then per table a `table` line
// and its `row` lines, then an `end` line with the row counts (a truncated file has none). A row
// is PostgreSQL's own jsonb text of it, never parsed here, so numbers (money) stay exact: the
// restore hands the same text back to jsonb_populate_recordset (src/db/restore.ts).
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { Client } from 'pg';

export const BACKUP_FORMAT = 'backoffice-backup';
export const BACKUP_VERSION = 1;

export interface BackupTable {
  schema: string;
  name: string;
  /** The columns the restore writes: generated columns are computed again. */
  columns: string[];
}

export interface BackupSequence {
  schema: string;
  name: string;
  data_type: string;
  start_value: string;
  min_value: string;
  max_value: string;
  increment_by: string;
  cycle: boolean;
  /** null: never used (the next value is start_value). */
  last_value: string | null;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  created_at: string;
  server_version: string;
  /** In the order they were applied: the restore builds the same schema from these. */
  migrations: Array<{ name: string; checksum: string }>;
  tables: BackupTable[];
  sequences: BackupSequence[];
}

export interface BackupSummary {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  /** How long the snapshot was held (on the embedded database: how long requests waited). */
  snapshot_ms: number;
}

/** Tables of every schema but the system's; Prisma's migration history is the header's. */
const TABLES = `
SELECT n.nspname AS schema, c.relname AS name,
       array_agg(a.attname::text ORDER BY a.attnum) FILTER (WHERE a.attgenerated = '') AS columns
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relkind = 'r' AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'
  AND NOT (n.nspname = 'public' AND c.relname = '_prisma_migrations')
GROUP BY n.nspname, c.relname
ORDER BY n.nspname, c.relname`;

/** Read after the snapshot is taken: a value is then at least what every row in it used. */
const SEQUENCES = `
SELECT schemaname AS schema, sequencename AS name, data_type::text, start_value::text, min_value::text,
       max_value::text, increment_by::text, cycle, last_value::text
FROM pg_sequences
WHERE schemaname <> 'information_schema' AND schemaname NOT LIKE 'pg\\_%'
ORDER BY schemaname, sequencename`;

const FETCH_ROWS = 2000;

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const tableName = (t: { schema: string; name: string }) => `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;

/**
 * Writes the backup to `file` (mode 0600: it holds personal data), through a temporary file
 * renamed at the end, so a failed backup leaves no file that looks whole.
 */
export async function backupDatabase(databaseUrl: string, file: string): Promise<BackupSummary> {
  const tmp = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(tmp, { mode: 0o600 });
  const gzip = createGzip();
  gzip.pipe(out);
  const write = async (kind: string, json: string) => {
    if (!gzip.write(`${kind}\t${json}\n`)) await once(gzip, 'drain');
  };
  const client = new Client({ connectionString: databaseUrl });
  client.on('error', () => {}); // a dropped connection surfaces as the failing query's error
  let snapshotMs = 0;
  let rows = 0;
  let tables: BackupTable[] = [];
  try {
    await client.connect();
    const started = Date.now();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      tables = (await client.query<BackupTable>(TABLES)).rows;
      const sequences = (await client.query<BackupSequence>(SEQUENCES)).rows;
      const migrations = (await client.query<{ name: string; checksum: string }>(
        `SELECT migration_name AS name, checksum FROM "_prisma_migrations"
         WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY started_at, migration_name`,
      )).rows;
      const { server_version } = (await client.query<{ server_version: string }>('SHOW server_version')).rows[0];
      const header: BackupHeader = { format: BACKUP_FORMAT, version: BACKUP_VERSION, created_at: new Date().toISOString(), server_version, migrations, tables, sequences };
      await write('header', JSON.stringify(header));
      const counts: Record<string, number> = {};
      for (const table of tables) {
        await write('table', JSON.stringify({ schema: table.schema, name: table.name }));
        counts[`${table.schema}.${table.name}`] = 0;
        await client.query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT to_jsonb(t)::text FROM ${tableName(table)} t`);
        for (;;) {
          const batch = await client.query<string[]>({ text: `FETCH FORWARD ${FETCH_ROWS} FROM backup_rows`, rowMode: 'array' });
          for (const [row] of batch.rows) await write('row', row);
          counts[`${table.schema}.${table.name}`] += batch.rows.length;
          rows += batch.rows.length;
          if (batch.rows.length < FETCH_ROWS) break;
        }
        await client.query('CLOSE backup_rows');
      }
      await write('end', JSON.stringify({ rows: counts }));
    } finally {
      await client.query('ROLLBACK').catch(() => {});
      snapshotMs = Date.now() - started;
    }
    gzip.end();
    await once(out, 'close');
    renameSync(tmp, file);
  } catch (err) {
    gzip.destroy();
    out.destroy();
    rmSync(tmp, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
  return { file, bytes: out.bytesWritten, tables: tables.length, rows, snapshot_ms: snapshotMs };
}
