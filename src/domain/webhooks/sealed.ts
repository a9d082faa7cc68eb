// A webhook's secrets as stored (docs/security.md "Secrets at rest"): sealed on every write,
// opened only where they are used: delivery, a write that keeps them, GET's secret_key.
import type { Webhook } from '../../db/client';
import { openSecret, sealSecret } from '../../secret-box';

/** The secret fields and their columns (the column names the sealed values are bound to). */
export const WEBHOOK_SECRET_COLUMNS = { password: 'password', apiKey: 'api_key', secret: 'secret', previousSecret: 'previous_secret' } as const;
type Field = keyof typeof WEBHOOK_SECRET_COLUMNS;
type Secrets = { [F in Field]?: string | null };

export const webhookPlace = (column: string, id: string) => `webhooks.${column}:${id}`;
const place = (field: Field, id: string) => webhookPlace(WEBHOOK_SECRET_COLUMNS[field], id);

/** `data` (plain values) with its secret fields sealed; null and absent ones stay as they are. */
export function sealWebhook<T extends Secrets>(id: string, data: T): T {
  const out: Secrets = { ...data };
  for (const field of Object.keys(WEBHOOK_SECRET_COLUMNS) as Field[]) {
    const value = out[field];
    if (typeof value === 'string') out[field] = sealSecret(value, place(field, id));
  }
  return out as T;
}

/** The webhook with every secret opened. */
export function openWebhook<T extends Pick<Webhook, 'id' | Field>>(w: T): T {
  const open = (field: Field) => (w[field] === null ? null : openSecret(w[field]!, place(field, w.id)));
  return { ...w, password: open('password'), apiKey: open('apiKey'), secret: open('secret')!, previousSecret: open('previousSecret') };
}

/** Only the signing secret opened: the read that answers it opens nothing else. */
export function withOpenSecret<T extends Pick<Webhook, 'id' | 'secret'>>(w: T): T {
  return { ...w, secret: openSecret(w.secret, place('secret', w.id)) };
}
