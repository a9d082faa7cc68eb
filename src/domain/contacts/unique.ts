import { alreadyExists } from '../errors';

/**
 * Runs a write and turns a unique-index violation (P2002) into 409 ALREADY_EXISTS naming the
 * field. Create relies on it alone (no SELECT first); it also decides races that a check before
 * the write cannot see (two concurrent creates or updates with the same code).
 */
export async function uniqueFields<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (prismaCode(err) !== 'P2002') throw err;
    const detail = violatedFields(err);
    if (/statutory/i.test(detail)) throw alreadyExists('statutory_number', 'A contact with this statutory number already exists');
    if (/code/i.test(detail)) throw alreadyExists('code', 'A contact with this code already exists');
    if (/pkey|"id"/i.test(detail)) throw alreadyExists('id', 'A record with this id already exists');
    throw alreadyExists('id', 'The record already exists');
  }
}

/**
 * The constraint's fields, from the error's meta (`target`, or the driver adapter's
 * `constraint`) or the message's last line ("Unique constraint failed on the fields: (...)").
 * Never the whole message: Prisma puts a frame of the calling source code in it.
 */
function violatedFields(err: unknown): string {
  const meta = (err as { meta?: { target?: unknown; driverAdapterError?: { cause?: { constraint?: unknown } } } }).meta;
  const fromMeta = meta?.target ?? meta?.driverAdapterError?.cause?.constraint;
  if (fromMeta !== undefined) return JSON.stringify(fromMeta);
  const lines = String((err as Error).message ?? '').trim().split('\n');
  return lines[lines.length - 1] ?? '';
}

export function prismaCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
