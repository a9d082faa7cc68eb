// The signed-in user's tokens, in this module's memory only: never localStorage, sessionStorage or
// a cookie, so a script injected into another page of the origin, or someone reading the disk,
// finds no token. The price: a reload or a new tab means logging in again (docs/console.md).

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

export interface Identity {
  username: string;
  userId: string;
  organisationId: string;
  isAdmin: boolean;
  scopes: string[];
  /** From GET /users/me once it answered: the user's names (or username) and the organisation's name. */
  displayName?: string;
  organisationName?: string;
}

interface State {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, in ms since the epoch (this clock). */
  expiresAt: number;
  identity: Identity;
}

type Listener = () => void;

let state: State | null = null;
/** Why the last session ended when the user did not end it (the login page says so), until the next login. */
let ended: string | null = null;
const listeners = new Set<Listener>();

/** The access token's claims (src/domain/identity/tokens.ts). Read, not verified: the API verifies. */
function claimsOf(token: string): { sub: string; org: string; adm?: boolean; scopes?: string[] } {
  const payload = token.split('.')[1] ?? '';
  const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
  return JSON.parse(json);
}

export const session = {
  current(): State | null {
    return state;
  },
  accessToken(): string | null {
    return state?.accessToken ?? null;
  },
  refreshToken(): string | null {
    return state?.refreshToken ?? null;
  },
  /** After a login (username given) or a refresh (the username is kept). */
  start(pair: TokenPair, username?: string): void {
    ended = null;
    const claims = claimsOf(pair.access_token);
    state = {
      accessToken: pair.access_token,
      refreshToken: pair.refresh_token,
      expiresAt: Date.now() + pair.expires_in * 1000,
      identity: {
        username: username ?? state?.identity.username ?? '',
        userId: claims.sub,
        organisationId: claims.org,
        isAdmin: claims.adm === true,
        scopes: claims.scopes ?? [],
        // A refresh keeps what GET /users/me said.
        displayName: state?.identity.displayName,
        organisationName: state?.identity.organisationName,
      },
    };
    listeners.forEach((l) => l());
  },
  /** What GET /users/me answered about the signed-in user (ignored when the session ended or changed meanwhile). */
  describe(userId: string, profile: { displayName: string; organisationName: string }): void {
    if (!state || state.identity.userId !== userId) return;
    state = { ...state, identity: { ...state.identity, ...profile } };
    listeners.forEach((l) => l());
  },
  /** `reason`: the session ended without the user (a refresh refused), said on the login page. */
  end(reason?: string): void {
    state = null;
    ended = reason ?? null;
    listeners.forEach((l) => l());
  },
  endedBecause(): string | null {
    return ended;
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
