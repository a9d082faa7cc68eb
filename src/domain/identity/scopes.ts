/**
 * Permission groups. A credential's scopes hold `*` (everything), a group name (read and
 * write), or `<group>:read` / `<group>:write`. `settings` is the organisation's money settings
 * and its accounting periods (what finance controls); `reference_data` also covers the business
 * network, products and spend conditions (docs/money-reference.md "Scopes") and the loyalty
 * reference data (schemes, tiers, offers, voucher types); `rewards` is an account's reward
 * attributes, merchants and scheme sign-ups (docs/loyalty.md).
 */
export const SCOPE_GROUPS = ['contacts', 'accounts', 'reference_data', 'settings', 'wallets', 'api_keys', 'rewards', 'purchases', 'vouchers', 'activities', 'communications', 'webhooks', 'automations', 'reports', 'users'] as const;

export const ALL_SCOPES = ['*'];

export function hasScope(granted: readonly string[], required: string): boolean {
  const [group] = required.split(':');
  return granted.includes('*') || granted.includes(group) || granted.includes(required);
}

const SCOPE_PATTERN = new RegExp(`^(\\*|(${SCOPE_GROUPS.join('|')})(:(read|write))?)$`);

export function isKnownScope(scope: string): boolean {
  return SCOPE_PATTERN.test(scope);
}
