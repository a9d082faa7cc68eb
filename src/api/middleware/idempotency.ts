import { createHmac } from 'node:crypto';
import type { Db, Tx } from '../../db/client';
import type { OrgSql } from '../../db/sql';
import { AppError, conflict, invalid } from '../../domain/errors';

/** One key of one credential of one organisation. */
export interface IdempotencyKeyRef {
  organisationId: string;
  credentialId: string;
  key: string;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

/**
 * `Idempotency-Key` on POST: the first request with a key claims it by inserting a row, runs,
 * and stores its response; a repeat with the same body gets that response again, with
 * another body 409 IDEMPOTENCY_CONFLICT. Keys are per organisation and credential. Expired
 * records are deleted by the daily retention run (src/domain/retention/purge.ts).
 */
export class Idempotency {
  /**
   * The fingerprint's key, derived from the JWT secret (shared by every replica) for this use
   * only: a body may hold a password (POST /users), and a plain hash kept 24 h would let a
   * database reader test guesses at hash speed instead of argon2's.
   */
  private readonly key: Buffer;

  constructor(private readonly db: Db, jwtSecret: string) {
    this.key = createHmac('sha256', jwtSecret).update('idempotency-fingerprint').digest();
  }

  /** What a repeat must match: the method, the path with its query, and the body. */
  fingerprint(method: string, path: string, body: unknown): string {
    return createHmac('sha256', this.key).update(`${method} ${path}\n${JSON.stringify(body ?? null)}`).digest('hex');
  }

  /** Returns the stored response to replay, or null when this request now owns the key. */
  async claim(scope: { organisationId: string; credentialId: string }, key: string, fingerprint: string): Promise<StoredResponse | null> {
    if (key.length > 255) throw invalid('Idempotency-Key', 'Idempotency-Key must be at most 255 characters');
    const id = { organisationId: scope.organisationId, credentialId: scope.credentialId, key };
    const inserted = await this.db.$executeRaw`
      INSERT INTO idempotency_records (organisation_id, credential_id, key, request_hash, created_at)
      VALUES (${id.organisationId}::uuid, ${id.credentialId}, ${key}, ${fingerprint}, now())
      ON CONFLICT (organisation_id, credential_id, key) DO UPDATE
        SET request_hash = EXCLUDED.request_hash, created_at = now(), status_code = NULL, response_body = NULL
        WHERE idempotency_records.created_at < now() - interval '24 hours'`;
    if (inserted === 1) return null;
    const existing = await this.db.idempotencyRecord.findUnique({ where: { organisationId_credentialId_key: id } });
    // Released by a failed first request in the meantime: claim it again. (Expiry is decided by
    // the database clock, in the INSERT above, never by comparing clocks here.)
    if (!existing) return this.claim(scope, key, fingerprint);
    if (existing.requestHash !== fingerprint) {
      throw conflict('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was used with a different request', 'Idempotency-Key');
    }
    if (existing.statusCode === null) {
      throw new AppError('IDEMPOTENCY_IN_PROGRESS', 'A request with this Idempotency-Key is still being processed', 'Idempotency-Key');
    }
    return { status: existing.statusCode, body: existing.responseBody };
  }

  /** `tx`: the request's transaction, so the stored response commits with the change. */
  async complete(record: IdempotencyKeyRef, response: StoredResponse, tx: Tx = this.db): Promise<void> {
    await tx.idempotencyRecord.update({
      where: { organisationId_credentialId_key: record },
      data: { statusCode: response.status, responseBody: response.body as object },
    });
  }

  /** The same, on the pg transaction of a `transaction: 'sql'` route. */
  async completeSql(record: IdempotencyKeyRef, response: StoredResponse, sql: OrgSql): Promise<void> {
    await sql.rows(
      'UPDATE idempotency_records SET status_code = $4, response_body = $5::jsonb WHERE organisation_id = $1 AND credential_id = $2 AND key = $3',
      [record.credentialId, record.key, response.status, JSON.stringify(response.body)],
    );
  }

  /** A server error releases the key so that the caller's retry runs again. */
  async release(record: IdempotencyKeyRef): Promise<void> {
    await this.db.idempotencyRecord.deleteMany({ where: record });
  }
}
