/**
 * Permission groups. A credential's scopes hold `*` (everything), a group name (read and
 * write), or `<group>:read` / `<group>:write`. `settings` is the organisation's money settings
 * and its accounting periods (what finance controls); `reference_data` also covers the business
 * network, products and spend conditions (docs/money-reference.md "Scopes").
 */
export const SCOPE_GROUPS = ['contacts', 'accounts', 'reference_data', 'settings', 'wallets', 'api_keys'] as const;

export const ALL_SCOPES = ['*'];

export function hasScope(granted: readonly string[], required: string): boolean {
  const [group] = required.split(':');
  return granted.includes('*') || granted.includes(group) || granted.includes(required);
}

const SCOPE_PATTERN = new RegExp(`^(\\*|(${SCOPE_GROUPS.join('|')})(:(read|write))?)$`);

export function isKnownScope(scope: string): boolean {
  return SCOPE_PATTERN.test(scope);
}
