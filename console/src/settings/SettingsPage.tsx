import { Alert, Stack, Tabs, Title } from '@mantine/core';
import { useNavigate, useParams } from 'react-router';
import { useSession } from '../auth/useSession';
import { ApiKeys } from './ApiKeys';
import { OrganisationSettings } from './OrganisationSettings';
import { Users } from './Users';

const TABS = [
  { value: 'organisation', label: 'Organisation' },
  { value: 'api_keys', label: 'API keys' },
  { value: 'users', label: 'Users' },
];

/** Settings and keys: the organisation's settings, its API keys and its users, one tab each (a link each: /settings/<tab>). */
export function SettingsPage() {
  const { tab = 'organisation' } = useParams();
  const navigate = useNavigate();
  const isAdmin = useSession()?.identity.isAdmin ?? false;
  const current = TABS.some((t) => t.value === tab) ? tab : 'organisation';
  return (
    <Stack>
      <Title order={1} size="h2">Settings</Title>
      <Tabs value={current} onChange={(v) => v && navigate(v === 'organisation' ? '/settings' : `/settings/${v}`)} keepMounted={false}>
        <Tabs.List>
          {TABS.map((t) => <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>)}
        </Tabs.List>
        <Tabs.Panel value="organisation" pt="md"><OrganisationSettings /></Tabs.Panel>
        <Tabs.Panel value="api_keys" pt="md">
          {/* The API lets only admin users manage keys (and secret keys holding api_keys): not asked for a 403. */}
          {isAdmin ? <ApiKeys /> : <Alert color="gray" title="Admins only">Only admin users manage the organisation's API keys. Ask an admin for a key.</Alert>}
        </Tabs.Panel>
        <Tabs.Panel value="users" pt="md"><Users /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
