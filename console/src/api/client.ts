// The typed API client: openapi-fetch over the paths that openapi-typescript generated from the
// service's own OpenAPI document (scripts/build-console.mjs), so a renamed field or path is a type
// error in the console (test/console/client-drift.test.ts). Same origin: the console is served by
// the service, so the API is at /backoffice/v1 of this page's origin (CSP connect-src 'self').
import createClient from 'openapi-fetch';
import type { paths } from '@api/schema';
import { session, type TokenPair } from '../auth/session';

export const API_BASE = '/backoffice/v1';

const AUTH_PATHS = [`${API_BASE}/users/login`, `${API_BASE}/users/refresh`, `${API_BASE}/users/logout`];
const isAuthPath = (url: string) => AUTH_PATHS.includes(new URL(url).pathname);

/**
 * Adds the access token; on a 401 (the token expired while the tab slept, or was revoked) it
 * refreshes once and sends the request again. A second 401 is the caller's.
 */
async function authorisedFetch(request: Request): Promise<Response> {
  const token = session.accessToken();
  if (!token || isAuthPath(request.url)) return fetch(request);
  const retry = request.clone();
  request.headers.set('Authorization', `Bearer ${token}`);
  const res = await fetch(request);
  if (res.status !== 401) return res;
  if (!(await refreshSession())) return res;
  retry.headers.set('Authorization', `Bearer ${session.accessToken()}`);
  return fetch(retry);
}

export const api = createClient<paths>({ baseUrl: API_BASE, fetch: authorisedFetch });

let refreshing: Promise<boolean> | null = null;
let timer: ReturnType<typeof setTimeout> | undefined;

/** One refresh at a time: refresh tokens are single-use, a second use revokes them all. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    const refresh_token = session.refreshToken();
    if (!refresh_token) return false;
    const { data, error } = await api.POST('/users/refresh', { body: { refresh_token } });
    if (!data) {
      // Expired, revoked (a log out elsewhere, revoke-sessions) or used twice: the login page says why it is back.
      void logOut(`It expired or was ended elsewhere: the service refused to renew it (${error?.message ?? 'no answer'}).`);
      return false;
    }
    begin(data);
    return true;
  })().finally(() => (refreshing = null));
  return refreshing;
}

/** Refresh a minute before the access token expires (at once for a very short one). */
function begin(pair: TokenPair, username?: string) {
  session.start(pair, username);
  clearTimeout(timer);
  timer = setTimeout(() => void refreshSession(), Math.max(5, pair.expires_in - 60) * 1000);
}

export type LoginFailure = { message: string; attribute?: string };

/** Logs in, or says why not in the API's words. */
export async function logIn(username: string, password: string): Promise<LoginFailure | null> {
  try {
    const { data, error, response } = await api.POST('/users/login', { body: { username, password } });
    if (data) {
      begin(data, username);
      void describeUser();
      return null;
    }
    if (response.status === 429) return { message: `${error?.message ?? 'Too many attempts'} (retry in ${response.headers.get('Retry-After') ?? 'a few'} s)` };
    return { message: error?.message ?? `Login failed (${response.status})`, attribute: error?.attribute };
  } catch {
    return { message: 'The service cannot be reached' };
  }
}

/**
 * Who the user is, by name, and their organisation's name (GET /users/me), for the header. The
 * header shows the username and organisation id until it answers, and keeps them if it fails.
 */
async function describeUser(): Promise<void> {
  const userId = session.current()?.identity.userId;
  const { data } = await api.GET('/users/me').catch(() => ({ data: undefined }));
  if (!userId || data?.credential_type !== 'USER') return;
  const name = [data.first_name, data.last_name].filter(Boolean).join(' ');
  session.describe(userId, { displayName: name || data.username, organisationName: data.organisation.name });
}

/**
 * Forgets the tokens at once (the page goes to the login, which says `reason` when the user did
 * not ask for it), then revokes the refresh token on the server (POST /users/logout), so a copy of
 * it is worth nothing. The access token cannot be revoked alone; forgotten here, it expires within
 * minutes (docs/console.md "Signing in").
 */
export async function logOut(reason?: string): Promise<void> {
  clearTimeout(timer);
  const refresh_token = session.refreshToken();
  session.end(reason);
  if (refresh_token) await api.POST('/users/logout', { body: { refresh_token } }).catch(() => undefined);
}
