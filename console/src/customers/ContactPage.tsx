import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { AccountsTab } from './AccountsTab';
import { ActivityTab } from './ActivityTab';
import { CommunicationsTab } from './CommunicationsTab';
import { ProfileTab } from './ProfileTab';
import { PurchasesTab } from './PurchasesTab';
import { RewardsTab } from './RewardsTab';
import { VouchersTab } from './VouchersTab';
import { WalletsTab } from './WalletsTab';

const TABS = [
  { value: 'profile', label: 'Profile' },
  { value: 'accounts', label: 'Accounts' },
  { value: 'wallets', label: 'Wallets' },
  { value: 'purchases', label: 'Purchases' },
  { value: 'vouchers', label: 'Vouchers' },
  { value: 'rewards', label: 'Rewards' },
  { value: 'activity', label: 'Activity' },
  { value: 'communications', label: 'Communications' },
] as const;

/**
 * One contact (`/customers/{id}`, the id or the code): a tab per area, named in the URL
 * (`?tab=wallets`) so a link or the back button returns to it. A tab loads when it is shown, so
 * coming back to one shows what changed meanwhile.
 */
export function ContactPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = TABS.some((t) => t.value === params.get('tab')) ? params.get('tab')! : 'profile';
  const contact = useLoad(() => ok(api.GET('/contacts/{id}', { params: { path: { id } } })), [id]);

  if (contact.error) {
    return (
      <Stack>
        <Alert color="red" title="Cannot load the contact">{contact.error.message}</Alert>
        <Anchor component={Link} to="/customers">Back to the search</Anchor>
      </Stack>
    );
  }
  const c = contact.data;
  if (!c) return <Loader aria-label="Loading" />;
  // The API takes the id or the code in paths; the tabs use the id.
  const contactId = c.id;
  return (
    <Stack>
      <Anchor component={Link} to="/customers" size="sm">← Customers</Anchor>
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={1} size="h2">{c.contact_name}</Title>
          <Group gap="xs" mt={4}>
            <Badge variant="light" color={c.contact_type === 'PERSON' ? 'blue' : 'grape'}>{c.contact_type}</Badge>
            {c.code && <Text size="sm" c="dimmed">Code {c.code}</Text>}
            {c.is_anonymized && <Badge color="gray">Anonymized</Badge>}
          </Group>
        </div>
        {!c.is_anonymized && <Button component={Link} to={`/customers/${contactId}/edit`} variant="default">Edit</Button>}
      </Group>
      <Tabs value={tab} onChange={(v) => v && setParams({ tab: v }, { replace: true })} keepMounted={false}>
        <Tabs.List>
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="profile" pt="md"><ProfileTab contact={c} onChanged={contact.reload} /></Tabs.Panel>
        <Tabs.Panel value="accounts" pt="md"><AccountsTab contactId={contactId} /></Tabs.Panel>
        <Tabs.Panel value="wallets" pt="md"><WalletsTab contactId={contactId} /></Tabs.Panel>
        <Tabs.Panel value="purchases" pt="md"><PurchasesTab contactId={contactId} /></Tabs.Panel>
        <Tabs.Panel value="vouchers" pt="md"><VouchersTab contactId={contactId} /></Tabs.Panel>
        <Tabs.Panel value="rewards" pt="md"><RewardsTab contactId={contactId} /></Tabs.Panel>
        <Tabs.Panel value="activity" pt="md"><ActivityTab contactId={contactId} /></Tabs.Panel>
        <Tabs.Panel value="communications" pt="md"><CommunicationsTab contactId={contactId} /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
