// The one place a database error becomes an API error (docs/platform.md "Errors"). Domain code
// lets unique and foreign-key violations happen (the indexes decide races a check cannot) and
// never maps them itself; the request pipeline calls `fromDatabaseError` on whatever escapes.
import { AppError, alreadyExists, conflict, invalid, notFound } from './errors';

/** What PostgreSQL (through pg or Prisma's driver adapter) tells about a failed statement. */
interface Failure {
  /** SQLSTATE, e.g. 23505. */
  sqlState?: string;
  /** Columns of the violated constraint, without organisation_id. */
  columns: string[];
  /** A foreign key violated by a delete (the row is still referenced), not by an insert. */
  stillReferenced: boolean;
}

/** Maps a database error to the API's answer, or undefined when it is not one this knows. */
export function fromDatabaseError(err: unknown): AppError | undefined {
  // An update or delete whose where (scoped to the organisation) matched nothing.
  if ((err as { code?: unknown })?.code === 'P2025') return notFound('Record');
  if (isTransient(err)) {
    return new AppError('UNAVAILABLE', 'The database was briefly unavailable or the write collided with another; retry (an Idempotency-Key makes the retry safe)');
  }
  const f = describe(err);
  if (!f) return undefined;
  // Column names are the API's snake_case attribute names (DEVELOPING.md "Database").
  const attribute = f.columns.join(',') || undefined;
  switch (f.sqlState) {
    case '23505':
      if (attribute === undefined || attribute === 'id') return alreadyExists('id', 'A record with this id already exists');
      return alreadyExists(attribute, `A record with this ${attribute.replace(/_/g, ' ')} already exists`);
    case '23001': // restrict_violation: PostgreSQL 18 (the embedded PGlite) for ON DELETE RESTRICT
    case '23503':
      if (f.sqlState === '23001' || f.stillReferenced) return conflict('IN_USE', 'The record is still in use and cannot be deleted');
      return invalid(attribute, `${attribute ?? 'A reference'}: the referenced record does not exist`);
    case '22001':
      return invalid(attribute, `${attribute ?? 'A value'} is too long`);
    case '22021':
    case '22P05':
      return invalid(attribute, 'Text contains a character the database cannot store (e.g. NUL)');
    case '22P02':
    case '22003':
    case '22007':
    case '22008':
      return invalid(attribute, 'A value is not valid for its field');
    default:
      return undefined;
  }
}

function describe(err: unknown): Failure | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; meta?: Record<string, unknown>; constraint?: unknown; detail?: unknown; table?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (!code) return undefined;
  // Prisma over the driver adapter: the SQLSTATE and the constraint's name are in the cause.
  const cause = (e.meta?.driverAdapterError as { cause?: Record<string, unknown> } | undefined)?.cause;
  if (!cause) return fromPg(e, code);
  const message = str(cause.originalMessage) ?? '';
  const table = str(cause.table) ?? /on table "([^"]+)"/.exec(message)?.[1];
  const constraint = cause.constraint as { fields?: string[]; index?: string } | undefined;
  const columns = constraint?.fields ?? columnsOfConstraint(constraint?.index, table);
  return { sqlState: str(cause.originalCode), columns: withoutOrg(columns), stillReferenced: /^update or delete on table/.test(message) };
}

/** pg's own DatabaseError: SQLSTATE in code; "Key (organisation_id, code)=(...) already exists." */
function fromPg(e: { constraint?: unknown; detail?: unknown; table?: unknown }, code: string): Failure | undefined {
  if (!/^[0-9A-Z]{5}$/.test(code)) return undefined;
  const detail = str(e.detail) ?? '';
  const keyColumns = /^Key \(([^)]*)\)/.exec(detail)?.[1]?.split(',').map((c) => c.trim().replace(/"/g, ''));
  const columns = keyColumns ?? columnsOfConstraint(str(e.constraint), str(e.table));
  return { sqlState: code, columns: withoutOrg(columns), stillReferenced: /still referenced/.test(detail) };
}

/** `contacts_organisation_id_code_key` on `contacts` → [organisation_id_code]; `contacts_pkey` → [id]. */
function columnsOfConstraint(name: string | undefined, table: string | undefined): string[] {
  if (!name) return [];
  if (name.endsWith('_pkey')) return ['id'];
  const body = name.replace(/_(key|fkey)$/, '');
  const columns = table && body.startsWith(`${table}_`) ? body.slice(table.length + 1) : body;
  return [columns.replace(/^organisation_id_/, '')];
}

function withoutOrg(columns: string[]): string[] {
  return columns.filter((c) => c !== 'organisation_id');
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/**
 * Failures that say nothing about the request and go away on a retry: the connection was lost or
 * refused, the server is shutting down or starting, the pool or a transaction waited too long,
 * or the write lost a serialization or deadlock race (PostgreSQL rolled it back whole).
 */
const TRANSIENT_SQLSTATES = /^(08...|40001|40P01|57P0[123]|53300|55P03)$/;
const TRANSIENT_PRISMA = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2028', 'P2034']);
const TRANSIENT_NODE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const TRANSIENT_MESSAGE = /Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Connection closed/i;

export function isTransient(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { code?: unknown; message?: unknown; meta?: Record<string, unknown>; cause?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  if (TRANSIENT_PRISMA.has(code) || TRANSIENT_NODE.has(code) || TRANSIENT_SQLSTATES.test(code)) return true;
  const adapter = e.meta?.driverAdapterError as { cause?: { originalCode?: unknown; kind?: unknown } } | undefined;
  const original = adapter?.cause?.originalCode;
  if (typeof original === 'string' && TRANSIENT_SQLSTATES.test(original)) return true;
  if (adapter?.cause?.kind === 'TransactionWriteConflict' || adapter?.cause?.kind === 'ConnectionClosed') return true;
  if (typeof e.message === 'string' && TRANSIENT_MESSAGE.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== err && isTransient(e.cause);
}
