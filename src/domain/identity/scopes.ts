/**
 * Permission groups. A credential's scopes hold `*` (everything), a group name (read and
 * write), or `<group>:read` / `<group>:write`. `settings` is the organisation's money settings
 * and its accounting periods (what finance controls); `reference_data` also covers the business
 * network, products and spend conditions (docs/money-reference.md "Scopes") and the loyalty
 * reference data (schemes, tiers, offers, voucher types); `rewards` is an account's reward
 * attributes, merchants and scheme sign-ups (docs/loyalty.md); `integrations` is the providers
 * messages and report mails go through (where mail goes and which secrets go with it), apart from
 * `communications`, which only uses them (docs/security.md "Rights follow what a change reaches").
 */
export const SCOPE_GROUPS = ['contacts', 'accounts', 'reference_data', 'settings', 'wallets', 'api_keys', 'rewards', 'purchases', 'vouchers', 'activities', 'communications', 'integrations', 'webhooks', 'automations', 'reports', 'users'] as const;
export type ScopeGroup = (typeof SCOPE_GROUPS)[number];

/** What a route requires (`auth: { scope }`): a typo here fails tsc. */
export type Scope = `${ScopeGroup}:${'read' | 'write'}`;

/** Every scope a route can require, groups × read/write, in group order. */
export const SCOPES: readonly Scope[] = SCOPE_GROUPS.flatMap((g) => [`${g}:read`, `${g}:write`] as const);

/** What a credential may hold: `*`, a group (both halves) or one scope. */
export type Grant = '*' | ScopeGroup | Scope;
export const GRANTS: readonly [Grant, ...Grant[]] = ['*', ...SCOPE_GROUPS, ...SCOPES];

export const ALL_SCOPES: Grant[] = ['*'];

/** The most a public key holds (spec 4.7: the communication operations); stored as [] when it holds all of it. */
export const PUBLIC_KEY_SCOPES: Grant[] = ['communications:read', 'communications:write'];

export function hasScope(granted: readonly string[], required: string): boolean {
  const [group] = required.split(':');
  return granted.includes('*') || granted.includes(group) || granted.includes(required);
}

const KNOWN = new Set<string>(GRANTS);

export function isKnownScope(scope: string): scope is Grant {
  return KNOWN.has(scope);
}

/**
 * Whether a holder of `held` may give `wanted` to a new credential: only what it holds itself.
 * `*` also covers groups added later, so only `*` grants `*`; a group is read and write.
 */
export function canGrant(held: readonly string[], wanted: string): boolean {
  if (held.includes('*')) return true;
  if (wanted === '*') return false;
  if (wanted.includes(':')) return hasScope(held, wanted);
  return hasScope(held, `${wanted}:read`) && hasScope(held, `${wanted}:write`);
}
