// Restores a backup (src/db/backup.ts) into an embedded data directory. The database is built
// beside the target, in a folder of its own inside it, and moved into place only once it is
// whole: a failed restore leaves the target as it was. Its schema comes from this version's
// migrations, the ones the backup's database had, then its rows, then the migrations this version
// adds (a backup of an older version restores into a newer one).
import { createReadStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { Client } from 'pg';
import { BACKUP_FORMAT, BACKUP_VERSION, quoteIdent, tableName, type BackupHeader, type BackupSequence, type BackupTable } from './backup';
import { lockDataDir } from './data-dir-lock';
import { startEmbeddedDatabase, type EmbeddedLog } from './embedded';
import { applyMigrations, type MigrationLog } from './migrate';
import { readMigrations } from './migration-files';

/** The embedded database's folder in a data directory (src/db/embedded.ts). */
const PGDATA = 'pgdata';
/** Rows per INSERT: a few hundred kB of jsonb text per statement. */
const BATCH_ROWS = 1000;

export interface RestoreSummary {
  data_dir: string;
  tables: number;
  rows: number;
  /** Migrations of this version the backup's database did not have yet, applied after its rows. */
  migrations_applied: string[];
  /** Where a database the restore replaced (--force) was moved. */
  replaced_database_moved_to?: string;
  ms: number;
}

export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

/**
 * `inspect` runs on the restored database before it is moved into place (the admin command line
 * checks the ledger there). Refuses a data directory with anything in it unless `force`: then
 * its database is moved aside and replaced, and its other files (keys, certificate) stay.
 */
export async function restoreDataDir<T>(
  file: string,
  dataDir: string,
  opts: { force: boolean; log: EmbeddedLog & MigrationLog; inspect: (databaseUrl: string) => Promise<T> },
): Promise<RestoreSummary & { inspected: T }> {
  const started = Date.now();
  const header = await readHeader(file);
  const pending = checkMigrations(header);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const present = readdirSync(dataDir);
  if (present.length && !opts.force) {
    throw new RestoreRefused(
      `${dataDir} is not empty (${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}): restore into a new data directory, ` +
        'or pass --force to replace the database in this one (it is moved aside; the other files, keys included, stay)',
    );
  }
  // Held throughout: no service starts on the directory meanwhile, and none runs on it now.
  const lock = lockDataDir(dataDir);
  const staging = path.join(dataDir, `restoring-${process.pid}`);
  try {
    rmSync(staging, { recursive: true, force: true });
    const embedded = await startEmbeddedDatabase(staging, { log: opts.log });
    let loaded: { rows: number; applied: string[]; inspected: T };
    try {
      const last = header.migrations.at(-1)?.name;
      if (last) await applyMigrations(embedded.url, opts.log, { until: last });
      const rows = await load(embedded.url, file, header);
      const applied = await applyMigrations(embedded.url, opts.log);
      if (applied.length !== pending.length) throw new Error(`expected to apply ${pending.join(', ') || 'no migration'} after the rows, applied ${applied.join(', ') || 'none'}`);
      loaded = { rows, applied, inspected: await opts.inspect(embedded.url) };
    } finally {
      await embedded.close();
    }
    const target = path.join(dataDir, PGDATA);
    let movedTo: string | undefined;
    if (existsSync(target)) {
      movedTo = `${target}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(target, movedTo);
    }
    renameSync(path.join(staging, PGDATA), target);
    return {
      data_dir: dataDir,
      tables: header.tables.length,
      rows: loaded.rows,
      migrations_applied: loaded.applied,
      ...(movedTo ? { replaced_database_moved_to: movedTo } : {}),
      ms: Date.now() - started,
      inspected: loaded.inspected,
    };
  } finally {
    rmSync(staging, { recursive: true, force: true });
    lock.release();
  }
}

function lines(file: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
}

function split(line: string): [string, string] {
  const tab = line.indexOf('\t');
  return tab < 0 ? [line, ''] : [line.slice(0, tab), line.slice(tab + 1)];
}

async function readHeader(file: string): Promise<BackupHeader> {
  if (!existsSync(file)) throw new RestoreRefused(`${file} does not exist`);
  let first: string | undefined;
  try {
    for await (const line of lines(file)) {
      first = line;
      break;
    }
  } catch (err) {
    throw new RestoreRefused(`${file} is not a backup of this service (${(err as Error).message})`);
  }
  const [kind, json] = split(first ?? '');
  const header = kind === 'header' ? (JSON.parse(json) as BackupHeader) : undefined;
  if (header?.format !== BACKUP_FORMAT) throw new RestoreRefused(`${file} is not a backup of this service (npm run admin -- backup)`);
  if (header.version !== BACKUP_VERSION) throw new RestoreRefused(`${file} is a backup of format version ${header.version}; this version reads ${BACKUP_VERSION}`);
  return header;
}

/** The backup's migrations must be this version's first ones, unchanged; answers the rest. */
function checkMigrations(header: BackupHeader): string[] {
  const local = readMigrations();
  header.migrations.forEach((m, i) => {
    if (local[i]?.name !== m.name) {
      throw new RestoreRefused(
        local.some((l) => l.name === m.name)
          ? `the backup's migrations differ from this version's at ${m.name}: restore it with the version that took it`
          : `the backup was taken by a newer version (its migration ${m.name} is unknown here): restore it with that version`,
      );
    }
    if (local[i].checksum !== m.checksum) throw new RestoreRefused(`migration ${m.name} of the backup differs from this version's (checksum): restore it with the version that took it`);
  });
  return local.slice(header.migrations.length).map((m) => m.name);
}

/**
 * One transaction: the migrations' own rows (reference data) are replaced by the backup's, triggers
 * and foreign keys are off while rows go in (session_replication_role; the backup is one
 * consistent snapshot), sequences continue where the source's were. Answers the rows loaded.
 */
async function load(databaseUrl: string, file: string, header: BackupHeader): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SET LOCAL session_replication_role = replica');
    const columns = await existingColumns(client);
    for (const t of header.tables) {
      const missing = t.columns.filter((c) => !columns.get(`${t.schema}.${t.name}`)?.has(c));
      if (missing.length) throw new Error(`the restored schema has no ${tableName(t)} (${missing.join(', ')}): the backup does not match its migrations`);
    }
    if (header.tables.length) await client.query(`TRUNCATE ${header.tables.map(tableName).join(', ')}`);
    for (const s of header.sequences) await restoreSequence(client, s);

    const tables = new Map(header.tables.map((t) => [`${t.schema}.${t.name}`, t]));
    const counts: Record<string, number> = {};
    let table: BackupTable | undefined;
    let batch: string[] = [];
    let ended: Record<string, number> | undefined;
    const flush = async () => {
      if (!table || !batch.length) return;
      const cols = table.columns.map(quoteIdent).join(', ');
      await client.query(`INSERT INTO ${tableName(table)} (${cols}) OVERRIDING SYSTEM VALUE SELECT ${cols} FROM jsonb_populate_recordset(NULL::${tableName(table)}, $1::jsonb)`, [`[${batch.join(',')}]`]);
      batch = [];
    };
    let first = true;
    for await (const line of lines(file)) {
      if (first) {
        first = false; // the header
        continue;
      }
      const [kind, json] = split(line);
      if (kind === 'row') {
        if (!table) throw new Error('a row before its table');
        batch.push(json);
        counts[`${table.schema}.${table.name}`]++;
        if (batch.length >= BATCH_ROWS) await flush();
      } else if (kind === 'table') {
        await flush();
        const { schema, name } = JSON.parse(json) as { schema: string; name: string };
        table = tables.get(`${schema}.${name}`);
        if (!table) throw new Error(`rows of ${schema}.${name}, a table the header does not list`);
        counts[`${schema}.${name}`] = 0;
      } else if (kind === 'end') {
        await flush();
        ended = (JSON.parse(json) as { rows: Record<string, number> }).rows;
      } else {
        throw new Error(`unknown record "${kind}"`);
      }
    }
    // Without its end line the file was cut short: not the whole snapshot.
    if (!ended) throw new Error(`${file} ends before its last record: the backup is incomplete`);
    for (const [name, n] of Object.entries(ended)) {
      if (counts[name] !== n) throw new Error(`${name}: ${counts[name] ?? 0} rows read, the backup says ${n}`);
    }
    await client.query('COMMIT');
    return Object.values(counts).reduce((a, b) => a + b, 0);
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await client.end().catch(() => {});
  }
}

async function existingColumns(client: Client): Promise<Map<string, Set<string>>> {
  const { rows } = await client.query<{ t: string; c: string }>(
    `SELECT table_schema || '.' || table_name AS t, column_name AS c FROM information_schema.columns
     WHERE table_schema <> 'information_schema' AND table_schema NOT LIKE 'pg\\_%'`,
  );
  const out = new Map<string, Set<string>>();
  for (const r of rows) (out.get(r.t) ?? out.set(r.t, new Set()).get(r.t)!).add(r.c);
  return out;
}

/** Made again if no migration makes it (the per-organisation number sequences), then set. */
async function restoreSequence(client: Client, s: BackupSequence): Promise<void> {
  const name = tableName(s);
  const int = (v: string) => {
    if (!/^-?\d+$/.test(v)) throw new Error(`sequence ${name}: ${v} is not an integer`);
    return v;
  };
  if (!/^(smallint|integer|bigint)$/.test(s.data_type)) throw new Error(`sequence ${name}: unknown type ${s.data_type}`);
  await client.query(
    `CREATE SEQUENCE IF NOT EXISTS ${name} AS ${s.data_type} INCREMENT BY ${int(s.increment_by)} MINVALUE ${int(s.min_value)} ` +
      `MAXVALUE ${int(s.max_value)} START WITH ${int(s.start_value)} ${s.cycle ? 'CYCLE' : 'NO CYCLE'}`,
  );
  await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [name, s.last_value ?? s.start_value, s.last_value !== null]);
}
