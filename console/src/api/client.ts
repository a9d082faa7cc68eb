// The typed API client: openapi-fetch over the paths that openapi-typescript generated from the
// service's own OpenAPI document (scripts/build-console.mjs), so a renamed field or path is a type
// error in the console (test/console/client-drift.test.ts). Same origin: the console is served by
// the service, so the API is at /backoffice/v1 of this page's origin (CSP connect-src 'self').
import createClient from 'openapi-fetch';
import type { paths } from '@api/schema';
import { session, type TokenPair } from '../auth/session';

export const API_BASE = '/backoffice/v1';

const AUTH_PATHS = [`${API_BASE}/users/login`, `${API_BASE}/users/refresh`];
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
    const { data } = await api.POST('/users/refresh', { body: { refresh_token } });
    if (!data) {
      logOut();
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
      return null;
    }
    if (response.status === 429) return { message: `${error?.message ?? 'Too many attempts'} (retry in ${response.headers.get('Retry-After') ?? 'a few'} s)` };
    return { message: error?.message ?? `Login failed (${response.status})`, attribute: error?.attribute };
  } catch {
    return { message: 'The service cannot be reached' };
  }
}

/** Forgets the tokens. The refresh token stays valid on the server until it expires (no revoke endpoint for it). */
export function logOut() {
  clearTimeout(timer);
  session.end();
}
