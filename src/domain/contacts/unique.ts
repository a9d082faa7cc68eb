import { alreadyExists } from '../errors';

/**
 * Runs a write and turns a unique-index violation (P2002) into 409 ALREADY_EXISTS naming the
 * field. The checks before a write give the friendly answer; this catches the race they cannot
 * see (two concurrent creates with the same code).
 */
export async function uniqueFields<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (prismaCode(err) !== 'P2002') throw err;
    const detail = JSON.stringify((err as { meta?: unknown }).meta ?? {}) + String((err as Error).message);
    if (/statutory/i.test(detail)) throw alreadyExists('statutory_number', 'A contact with this statutory number already exists');
    if (/code/i.test(detail)) throw alreadyExists('code', 'A contact with this code already exists');
    if (/pkey|"id"/i.test(detail)) throw alreadyExists('id', 'A record with this id already exists');
    throw alreadyExists('id', 'The record already exists');
  }
}

export function prismaCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}
