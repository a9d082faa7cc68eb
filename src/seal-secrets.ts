// Sealing stored secrets that are not sealed under the current key (docs/security.md "Secrets at
// rest"): at every start, the values a version before sealing stored in plain text; with
// `npm run admin -- reencrypt-secrets`, everything not under the current key (after a rotation).
// Pages of rows, each written back in one statement that changes a row only while it still holds
// what was read: a write meanwhile (sealed already) is never overwritten, and replicas starting
// together do the work once.
import type { Config } from './config';
import type { Db } from './db/client';
import { integrationPlace, mapSettingsSecrets, SETTINGS_SECRET_PATHS } from './domain/communications/integration-secrets';
import { WEBHOOK_SECRET_COLUMNS, webhookPlace } from './domain/webhooks/sealed';
import type { Logger } from './log';
import { secretBox, type SecretBox } from './secret-box';

const PAGE = 500;
const COLUMNS = Object.values(WEBHOOK_SECRET_COLUMNS);
/** `settings->>'password'`, `settings->'auth'->>'token'`, ... */
const SETTINGS_PATHS = SETTINGS_SECRET_PATHS.map((p) => `settings${p.slice(0, -1).map((k) => `->'${k}'`).join('')}->>'${p[p.length - 1]}'`);

export interface Sealed {
  webhooks: number;
  integrations: number;
  /** Rows left as they are: a value in them does not open with the keys this process has. */
  unopened: number;
}

/** `plain`: only values without the envelope; `all`: every value not under the current key. */
export async function sealStoredSecrets(db: Db, which: 'plain' | 'all', box: SecretBox = secretBox()): Promise<Sealed> {
  const prefix = which === 'plain' ? 'enc:' : `enc:v1:${box.currentId}:`;
  const reseal = (value: string, place: string) => (value.startsWith(prefix) ? value : box.seal(box.open(value, place), place));
  const pending = (exprs: string[]) => exprs.map((e) => `${e} NOT LIKE $2`).join(' OR ');
  const out: Sealed = { webhooks: 0, integrations: 0, unopened: 0 };
  const changed = <T>(rows: Row[], next: (row: Row) => T) =>
    rows.flatMap((row) => {
      try {
        return [{ id: row.id, next: next(row), row }];
      } catch {
        out.unopened++;
        return [];
      }
    });

  await pages(db, `SELECT id::text, ${COLUMNS.join(', ')} FROM webhooks WHERE id > $1::uuid AND (${pending(COLUMNS)}) ORDER BY id LIMIT ${PAGE}`, prefix, async (rows) => {
    const changes = changed(rows, (old) => Object.fromEntries(COLUMNS.map((c) => [c, typeof old[c] === 'string' ? reseal(old[c], webhookPlace(c, old.id)) : old[c]])));
    out.webhooks += await db.$executeRawUnsafe(
      `UPDATE webhooks w SET ${COLUMNS.map((c) => `${c} = n.next->>'${c}'`).join(', ')}
       FROM jsonb_to_recordset($1::jsonb) AS n(id uuid, old jsonb, next jsonb)
       WHERE w.id = n.id AND ${COLUMNS.map((c) => `w.${c} IS NOT DISTINCT FROM n.old->>'${c}'`).join(' AND ')}`,
      JSON.stringify(changes.map(({ id, next, row }) => ({ id, next, old: row }))),
    );
  });

  await pages(db, `SELECT id::text, settings FROM integrations WHERE id > $1::uuid AND (${pending(SETTINGS_PATHS)}) ORDER BY id LIMIT ${PAGE}`, prefix, async (rows) => {
    const changes = changed(rows, (old) => mapSettingsSecrets(old.settings, (v, path) => reseal(v, integrationPlace(path, old.id))));
    out.integrations += await db.$executeRawUnsafe(
      `UPDATE integrations i SET settings = n.next
       FROM jsonb_to_recordset($1::jsonb) AS n(id uuid, old jsonb, next jsonb)
       WHERE i.id = n.id AND i.settings = n.old`,
      JSON.stringify(changes.map(({ id, next, row }) => ({ id, next, old: row.settings }))),
    );
  });
  return out;
}

type Row = { id: string } & Record<string, any>;

async function pages(db: Db, select: string, prefix: string, write: (rows: Row[]) => Promise<void>): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await db.$queryRawUnsafe<Row[]>(select, after, `${prefix}%`);
    if (!rows.length) return;
    await write(rows);
    after = rows[rows.length - 1].id;
  }
}

/** Rows holding a value sealed under a key this process does not have (replicas with different keys). */
async function underUnknownKeys(db: Db, box: SecretBox): Promise<number> {
  const unknown = (exprs: string[]) => exprs.map((e) => `(${e} LIKE 'enc:v1:%' AND substr(${e}, 8, 8) <> ALL($1::text[]))`).join(' OR ');
  const [{ n }] = await db.$queryRawUnsafe<Array<{ n: number }>>(
    `SELECT ((SELECT count(*) FROM webhooks WHERE ${unknown(COLUMNS)}) + (SELECT count(*) FROM integrations WHERE ${unknown(SETTINGS_PATHS)}))::int AS n`,
    box.keyIds,
  );
  return n;
}

/** At start: the key is loaded (generated on the embedded shape), plain values sealed, foreign keys reported. */
export async function sealAtStart(db: Db, config: Config, log: Logger): Promise<void> {
  if (config.DATABASE_URL && !config.SECRETS_KEY) {
    log.warn('SECRETS_KEY is unset: stored secrets are sealed with DATA_DIR/secrets-key; replicas and workers sharing the database must share SECRETS_KEY');
  }
  const box = secretBox();
  const sealed = await sealStoredSecrets(db, 'plain', box);
  if (sealed.webhooks || sealed.integrations) log.info({ ...sealed, key: box.currentId }, 'sealed secrets stored in plain text');
  const foreign = await underUnknownKeys(db, box);
  if (foreign) {
    log.error({ rows: foreign, keys: box.keyIds }, 'stored secrets sealed under a key this process does not have will not open: set SECRETS_KEY (and SECRETS_KEY_PREVIOUS) to the keys the other processes use');
  }
}
