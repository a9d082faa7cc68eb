// Every client of the embedded database's wire server shares PGlite's one backend session, so a
// setting one client changes (pg_dump empties search_path) would hold for all of them, the service
// included, until a restart. Here each client keeps its own settings: when the backend passes from
// a client whose requests may have changed session settings to another, that client's settings
// are saved and the backend reset to the defaults; they are restored when it runs again, and
// dropped when it disconnects (docs/security.md "The embedded database").
import type { PGlite } from '@electric-sql/pglite';

export interface SessionOwner {
  /** Its requests may have changed session settings since they were last saved. */
  dirty: boolean;
  /** SQL restoring its settings; null: the defaults. */
  saved: string | null;
}

const RESET = 'SET SESSION AUTHORIZATION DEFAULT; RESET ROLE; RESET ALL';
const CAPTURE = `SELECT name, current_setting(name) AS value FROM pg_settings WHERE source = 'session'
  UNION ALL SELECT 'role', current_setting('role') WHERE current_setting('role') <> 'none'`;

// SET, RESET, DISCARD statements (not SET LOCAL, SET TRANSACTION, SET CONSTRAINTS: they end with
// the transaction) and set_config() unless its is_local is a literal true. A change these miss
// (hidden behind a comment, in a function) still ends when its client disconnects.
const SESSION_STATEMENT = /(?:^|;|\$\$|')\s*(?:set\s+(?!local\b|transaction\b|constraints\b)|reset\s|discard\s)/i;
const SESSION_FUNCTION = /\bset_config\s*\((?![^;]*?,\s*true\s*\))/i;

export class Sessions {
  /** The client whose settings are in effect on the backend (null: the defaults). */
  private applied: SessionOwner | null = null;
  /** A client left without saving: what it changed may still be in effect. */
  private resetNeeded = false;

  constructor(private readonly db: PGlite) {}

  /** Before a request of `owner` runs (the backend idle, inside runExclusive). */
  async enter(owner: SessionOwner): Promise<void> {
    const prev = this.applied;
    if (prev === owner && !this.resetNeeded) return;
    if (prev?.dirty) {
      prev.saved = await this.capture();
      prev.dirty = false;
    }
    if (this.resetNeeded || prev?.saved) await simpleQuery(this.db, RESET);
    this.resetNeeded = false;
    // A setting that no longer applies (a role dropped since) leaves that client with the defaults.
    if (owner.saved) await simpleQuery(this.db, owner.saved).catch(() => undefined);
    this.applied = owner;
  }

  /** After a request of `owner` ran. */
  ran(owner: SessionOwner, request: Uint8Array): void {
    if (!owner.dirty && changesSession(request)) owner.dirty = true;
  }

  /** `owner` disconnected: the next request starts from the defaults (unless another client's own settings are in effect). */
  left(owner: SessionOwner): void {
    if (this.applied === owner) this.applied = null;
    if (!this.applied || (!this.applied.dirty && !this.applied.saved)) this.resetNeeded = true;
  }

  private async capture(): Promise<string | null> {
    const rows = (await simpleQuery(this.db, CAPTURE)).map(([name, value]) => ({ name, value }));
    const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
    const settings = rows.filter((r) => r.name !== 'role').map((r) => `set_config(${literal(r.name)}, ${literal(r.value)}, false)`);
    const role = rows.find((r) => r.name === 'role');
    const sql = [settings.length ? `SELECT ${settings.join(', ')}` : '', role ? `SET ROLE "${role.value.replace(/"/g, '""')}"` : ''].filter(Boolean);
    return sql.length ? sql.join('; ') : null;
  }
}

/**
 * SQL run with the simple protocol, answering the rows as text. For use inside runExclusive:
 * PGlite's exec() and query() take the lock runExclusive holds, and would wait for themselves.
 */
export async function simpleQuery(db: PGlite, sql: string): Promise<string[][]> {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header[0] = 0x51; // Q
  header.writeInt32BE(4 + text.length, 1);
  const raw = await db.execProtocolRaw(Buffer.concat([header, text]), { syncToFs: false });
  const out = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  const rows: string[][] = [];
  let error: string | undefined;
  for (let i = 0; i + 5 <= out.length; i += 1 + out.readInt32BE(i + 1)) {
    if (out[i] === 0x44 /* DataRow */) {
      const row: string[] = [];
      for (let c = 0, p = i + 7; c < out.readInt16BE(i + 5); c++) {
        const length = out.readInt32BE(p);
        row.push(length < 0 ? '' : out.toString('utf8', p + 4, p + 4 + length));
        p += 4 + Math.max(0, length);
      }
      rows.push(row);
    } else if (out[i] === 0x45 /* ErrorResponse */ && error === undefined) {
      error = /(?:^|\0)M([^\0]*)/.exec(out.toString('utf8', i + 5, i + 1 + out.readInt32BE(i + 1)))?.[1] ?? 'error';
    }
  }
  if (error !== undefined) throw new Error(error);
  return rows;
}

/** Whether a request's SQL (Query and Parse messages) may change session settings. */
export function changesSession(request: Uint8Array): boolean {
  const buf = Buffer.isBuffer(request) ? request : Buffer.from(request.buffer, request.byteOffset, request.byteLength);
  for (let i = 0; i + 5 <= buf.length; i += Math.max(5, 1 + buf.readInt32BE(i + 1))) {
    const type = buf[i];
    if (type !== 0x51 /* Q */ && type !== 0x50 /* P */) continue;
    const start = type === 0x50 ? buf.indexOf(0, i + 5) + 1 : i + 5; // Parse: after the statement's name
    const text = buf.toString('utf8', start, buf.indexOf(0, start));
    if (SESSION_STATEMENT.test(text) || SESSION_FUNCTION.test(text)) return true;
  }
  return false;
}
