// A Prisma driver adapter over an in-process PGlite, used only to drive the WebAssembly schema
// engine against a throw-away in-memory shadow database. @prisma/adapter-pg cannot do this job:
// it rejects PostgreSQL's internal "char" type (OID 18) that the engine's catalog queries return,
// and the engine panics on pg_constraint.contype unless "char" is reported as a character column
// (FACTS.md, "Prisma 7 offline"). Values are fetched as raw text and converted here, so the
// engine sees the same shapes adapter-pg would give it.
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { PGlite, types } from '@electric-sql/pglite';
import {
  ColumnTypeEnum,
  DriverAdapterError,
  type ColumnType,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type SqlResultSet,
  type Transaction,
} from '@prisma/driver-adapter-utils';

type Parsers = Record<number, (text: string) => string>;

const scalarTypes: Record<number, ColumnType> = {
  16: ColumnTypeEnum.Boolean,
  17: ColumnTypeEnum.Bytes,
  18: ColumnTypeEnum.Character,
  20: ColumnTypeEnum.Int64,
  21: ColumnTypeEnum.Int32,
  23: ColumnTypeEnum.Int32,
  26: ColumnTypeEnum.Int64,
  114: ColumnTypeEnum.Json,
  700: ColumnTypeEnum.Float,
  701: ColumnTypeEnum.Double,
  1082: ColumnTypeEnum.Date,
  1083: ColumnTypeEnum.Time,
  1114: ColumnTypeEnum.DateTime,
  1184: ColumnTypeEnum.DateTime,
  1266: ColumnTypeEnum.Time,
  1700: ColumnTypeEnum.Numeric,
  2950: ColumnTypeEnum.Uuid,
  3802: ColumnTypeEnum.Json,
};

const arrayTypes: Record<number, ColumnType> = {
  1000: ColumnTypeEnum.BooleanArray,
  1002: ColumnTypeEnum.CharacterArray,
  1005: ColumnTypeEnum.Int32Array,
  1007: ColumnTypeEnum.Int32Array,
  1016: ColumnTypeEnum.Int64Array,
  1028: ColumnTypeEnum.Int64Array,
  1021: ColumnTypeEnum.FloatArray,
  1022: ColumnTypeEnum.DoubleArray,
  1231: ColumnTypeEnum.NumericArray,
  1182: ColumnTypeEnum.DateArray,
  1183: ColumnTypeEnum.TimeArray,
  1115: ColumnTypeEnum.DateTimeArray,
  1185: ColumnTypeEnum.DateTimeArray,
  199: ColumnTypeEnum.JsonArray,
  3807: ColumnTypeEnum.JsonArray,
  1001: ColumnTypeEnum.BytesArray,
  2951: ColumnTypeEnum.UuidArray,
};

/** Everything else (text, name, regclass, user-defined enums, ...) is plain text. */
function columnType(oid: number, arrayOids: Set<number>): ColumnType {
  return scalarTypes[oid] ?? arrayTypes[oid] ?? (arrayOids.has(oid) ? ColumnTypeEnum.TextArray : ColumnTypeEnum.Text);
}

function convertScalar(text: string, oid: number): unknown {
  switch (scalarTypes[oid]) {
    case ColumnTypeEnum.Int32:
    case ColumnTypeEnum.Float:
    case ColumnTypeEnum.Double:
      return Number(text);
    case ColumnTypeEnum.Boolean:
      return text === 't' || text === 'true';
    case ColumnTypeEnum.Bytes:
      return Array.from(Buffer.from(text.slice(2), 'hex'));
    case ColumnTypeEnum.DateTime:
      // Same normalisation as adapter-pg: ISO form, UTC offset spelled out.
      return oid === 1114
        ? `${text.replace(' ', 'T')}+00:00`
        : text.replace(' ', 'T').replace(/[+-]\d{2}(:\d{2})?$/, '+00:00');
    default:
      return text;
  }
}

const elementOid: Record<number, number> = {
  1000: 16, 1001: 17, 1002: 18, 1005: 21, 1007: 23, 1016: 20, 1028: 26, 1021: 700, 1022: 701,
  1231: 1700, 1182: 1082, 1183: 1083, 1115: 1114, 1185: 1184, 199: 114, 3807: 3802, 2951: 2950,
};

function convert(value: string | null, oid: number, arrayOids: Set<number>): unknown {
  if (value === null) return null;
  if (!arrayOids.has(oid)) return convertScalar(value, oid);
  const element = elementOid[oid] ?? 25;
  return types.arrayParser(value, (text) => convertScalar(text, element), oid);
}

class PGliteQueryable {
  readonly provider = 'postgres' as const;
  readonly adapterName = 'pglite-shadow';

  constructor(protected readonly db: PGlite, private readonly parsers: Parsers, private readonly arrayOids: Set<number>) {}

  async queryRaw(query: SqlQuery): Promise<SqlResultSet> {
    const { fields, rows } = await this.run(query);
    return {
      columnNames: fields.map((f) => f.name),
      columnTypes: fields.map((f) => columnType(f.dataTypeID, this.arrayOids)),
      rows: rows.map((row) => row.map((value, i) => convert(value, fields[i].dataTypeID, this.arrayOids))),
    };
  }

  async executeRaw(query: SqlQuery): Promise<number> {
    return (await this.run(query)).affectedRows ?? 0;
  }

  private async run(query: SqlQuery) {
    try {
      return await this.db.query<(string | null)[]>(query.sql, query.args, { rowMode: 'array', parsers: this.parsers });
    } catch (error) {
      throw toAdapterError(error);
    }
  }
}

function toAdapterError(error: unknown): DriverAdapterError {
  const e = error as { code?: string; message?: string; severity?: string; detail?: string; hint?: string };
  return new DriverAdapterError({
    kind: 'postgres',
    code: e.code ?? 'N/A',
    severity: e.severity ?? 'ERROR',
    message: e.message ?? String(error),
    detail: e.detail,
    column: undefined,
    hint: e.hint,
  });
}

class PGliteTransaction extends PGliteQueryable implements Transaction {
  readonly options = { usePhantomQuery: false };
  async commit(): Promise<void> {
    await this.db.exec('COMMIT');
  }
  async rollback(): Promise<void> {
    await this.db.exec('ROLLBACK');
  }
}

class PGliteAdapter extends PGliteQueryable implements SqlDriverAdapter {
  constructor(db: PGlite, private readonly p: Parsers, private readonly a: Set<number>) {
    super(db, p, a);
  }
  async executeScript(script: string): Promise<void> {
    try {
      await this.db.exec(script);
    } catch (error) {
      throw toAdapterError(error);
    }
  }
  async startTransaction(): Promise<Transaction> {
    // One engine, one connection, nothing concurrent: a plain BEGIN on the shared backend is enough.
    await this.db.exec('BEGIN');
    return new PGliteTransaction(this.db, this.p, this.a);
  }
  async dispose(): Promise<void> {}
}

/**
 * An adapter factory whose main and shadow database are both the given PGlite (the engine only
 * uses the shadow connection for diffs from a migrations folder).
 */
export async function createPGliteAdapterFactory(db: PGlite): Promise<SqlMigrationAwareDriverAdapterFactory> {
  // Every type comes back as its text form; convert() decides what the engine sees.
  const { rows } = await db.query<{ oid: number; typcategory: string }>('SELECT oid::int AS oid, typcategory FROM pg_type');
  const parsers: Parsers = {};
  for (const { oid } of rows) parsers[oid] = (text) => text;
  const arrayOids = new Set(rows.filter((r) => r.typcategory === 'A').map((r) => r.oid));
  const connect = async () => new PGliteAdapter(db, parsers, arrayOids);
  return { provider: 'postgres', adapterName: 'pglite-shadow', connect, connectToShadowDb: connect };
}

/** A fresh in-memory PGlite as main and shadow database. Call `close()` when done. */
export async function createInMemoryShadowAdapter(): Promise<SqlMigrationAwareDriverAdapterFactory & { close(): Promise<void> }> {
  const db = await PGlite.create({ extensions: { pg_trgm } });
  return { ...(await createPGliteAdapterFactory(db)), close: () => db.close() };
}
