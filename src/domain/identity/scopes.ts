/**
 * Permission groups. A credential's scopes hold `*` (everything), a group name (read and
 * write), or `<group>:read` / `<group>:write`.
 */
export const SCOPE_GROUPS = ['contacts', 'reference_data', 'api_keys'] as const;

export const ALL_SCOPES = ['*'];

export function hasScope(granted: readonly string[], required: string): boolean {
  const [group] = required.split(':');
  return granted.includes('*') || granted.includes(group) || granted.includes(required);
}

const SCOPE_PATTERN = new RegExp(`^(\\*|(${SCOPE_GROUPS.join('|')})(:(read|write))?)$`);

export function isKnownScope(scope: string): boolean {
  return SCOPE_PATTERN.test(scope);
}
