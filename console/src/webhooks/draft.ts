// The webhook form's values and the bodies made from them: a create sends every field given; an
// update sends only what changed, so a kept password or API key stays stored on the service.
import type { Method, UrlAuth, Webhook, WebhookCreate, WebhookUpdate } from './types';

export interface Draft {
  name: string;
  method: Method;
  url_endpoint: string;
  url_auth: UrlAuth;
  username: string;
  /** Empty: keep the stored one (edit) or none (create). Never filled from the API: it is write-only. */
  password: string;
  api_key: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone (a datetime-local input); empty: no end. */
  secret_key_active_until: string;
}

export const FIELDS = ['name', 'method', 'url_endpoint', 'url_auth', 'username', 'password', 'api_key', 'secret_key_active_until'];

export const emptyDraft = (): Draft => ({ name: '', method: 'POST', url_endpoint: '', url_auth: 'NO_AUTH', username: '', password: '', api_key: '', secret_key_active_until: '' });

export function draftOf(w: Webhook): Draft {
  return {
    name: w.name,
    method: w.method,
    url_endpoint: w.url_endpoint,
    url_auth: w.url_auth,
    username: w.username ?? '',
    password: '',
    api_key: '',
    secret_key_active_until: w.secret_key_active_until === null ? '' : localInput(w.secret_key_active_until),
  };
}

/** Epoch seconds as a datetime-local value, in the browser's zone. */
export function localInput(epoch: number): string {
  const d = new Date(epoch * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const epochOf = (local: string) => (local ? Math.floor(new Date(local).getTime() / 1000) : null);

/** Only the credentials of the chosen url_auth: the API refuses those of another kind. */
function credentials(d: Draft) {
  if (d.url_auth === 'USERNAME_PASSWORD') return { username: d.username.trim() || null, ...(d.password ? { password: d.password } : {}) };
  if (d.url_auth === 'API_KEY') return d.api_key ? { api_key: d.api_key } : {};
  return {};
}

export function createBody(d: Draft): WebhookCreate {
  const until = epochOf(d.secret_key_active_until);
  return { name: d.name.trim(), method: d.method, url_endpoint: d.url_endpoint.trim(), url_auth: d.url_auth, ...credentials(d), ...(until === null ? {} : { secret_key_active_until: until }) };
}

export function updateBody(d: Draft, stored: Webhook): WebhookUpdate {
  const body: WebhookUpdate = {};
  if (d.name.trim() !== stored.name) body.name = d.name.trim();
  if (d.url_endpoint.trim() !== stored.url_endpoint) body.url_endpoint = d.url_endpoint.trim();
  if (d.url_auth !== stored.url_auth) body.url_auth = d.url_auth;
  const creds = credentials(d);
  // The username goes only when it changed (or the kind did); secrets only when typed.
  if ('username' in creds && (body.url_auth || creds.username !== stored.username)) body.username = creds.username;
  if ('password' in creds) body.password = creds.password;
  if ('api_key' in creds) body.api_key = creds.api_key;
  const until = epochOf(d.secret_key_active_until);
  const storedUntil = stored.secret_key_active_until === null ? null : epochOf(localInput(stored.secret_key_active_until));
  if (until !== storedUntil) body.secret_key_active_until = until;
  return body;
}
