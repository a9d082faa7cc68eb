// The scopes an API key or a user may get. The API defines them (src/domain/identity/scopes.ts: groups, each
// as read and write) and states them as the enum of POST /api_keys `scopes` in its OpenAPI
// document; the list below is checked against that generated enum both ways, so a group the API
// adds or drops fails the console's type check (test/console/client-drift.test.ts).
import type { Body } from '../api/types';

export type Grant = NonNullable<Body<'/api_keys', 'post'>['scopes']>[number];

export const SCOPE_GROUPS = [
  'contacts',
  'accounts',
  'reference_data',
  'settings',
  'wallets',
  'api_keys',
  'rewards',
  'purchases',
  'vouchers',
  'activities',
  'communications',
  'integrations',
  'webhooks',
  'automations',
  'reports',
  'users',
] as const satisfies readonly Grant[];

export type ScopeGroup = (typeof SCOPE_GROUPS)[number];
type Listed = '*' | ScopeGroup | `${ScopeGroup}:read` | `${ScopeGroup}:write`;
// Both directions: every grant the API knows is listed here, and nothing here is unknown to it.
const apiKnowsNoMore: [Exclude<Grant, Listed>] extends [never] ? true : ['the API knows a scope the console does not list', Exclude<Grant, Listed>] = true;
const consoleListsNoMore: [Exclude<Listed, Grant>] extends [never] ? true : ['the console lists a scope the API does not know', Exclude<Listed, Grant>] = true;
void apiKnowsNoMore;
void consoleListsNoMore;

/** What a group covers, in the console's words (docs/*.md "Scopes"). */
export const GROUP_LABELS: Record<ScopeGroup, string> = {
  contacts: 'Contacts',
  accounts: 'Accounts',
  reference_data: 'Reference data (network, products, users, …)',
  settings: 'Money settings and accounting periods',
  wallets: 'Wallets and journals',
  api_keys: 'API keys',
  rewards: 'Rewards',
  purchases: 'Purchases',
  vouchers: 'Vouchers',
  activities: 'Activities',
  communications: 'Communications',
  integrations: 'Integrations (mail and SMS providers)',
  webhooks: 'Webhooks',
  automations: 'Automations',
  reports: 'Reports',
  users: 'Users',
};

export interface Choice {
  all: boolean;
  read: Set<ScopeGroup>;
  write: Set<ScopeGroup>;
}

/** The grants of a choice, as short as the API takes them: a group for read and write together. */
export function grantsOf(c: Choice): Grant[] {
  if (c.all) return ['*'];
  return SCOPE_GROUPS.flatMap((g): Grant[] => {
    if (c.read.has(g) && c.write.has(g)) return [g];
    if (c.read.has(g)) return [`${g}:read`];
    if (c.write.has(g)) return [`${g}:write`];
    return [];
  });
}

const isGroup = (g: string): g is ScopeGroup => (SCOPE_GROUPS as readonly string[]).includes(g);

/** The choice a credential's grants make (a user's scopes shown in the picker); unknown grants are left out. */
export function choiceOf(grants: readonly string[]): Choice {
  const choice: Choice = { all: grants.includes('*'), read: new Set(), write: new Set() };
  for (const grant of grants) {
    const [group, half] = grant.split(':');
    if (!isGroup(group)) continue;
    if (half !== 'write') choice.read.add(group);
    if (half !== 'read') choice.write.add(group);
  }
  return choice;
}
