import { AppShell, Burger, Button, Group, NavLink, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterLink, Outlet, useLocation } from 'react-router';
import { logOut } from '../api/client';
import { useSession } from '../auth/useSession';

const SECTIONS = [
  { to: '/automations', label: 'Automations' },
  { to: '/approvals', label: 'Approvals' },
  { to: '/customers', label: 'Customers' },
  { to: '/communications', label: 'Communications' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/reports', label: 'Reports' },
  { to: '/settings', label: 'Settings' },
];

/** Header with the user and organisation, navigation at the side (a drawer below the `sm` breakpoint: tablets held upright). */
export function Shell() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const current = useSession();
  const { pathname } = useLocation();
  const identity = current?.identity;
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Navigation" />
            <Title order={2} size="h4">Back-office console</Title>
          </Group>
          <Group wrap="nowrap" gap="sm">
            <Stack gap={0} align="flex-end" visibleFrom="xs">
              <Text size="sm" fw={600} data-testid="current-user" title={identity?.username}>
                {identity?.displayName ?? identity?.username}{identity?.isAdmin ? ' (admin)' : ''}
              </Text>
              <Text size="xs" c="dimmed" data-testid="current-organisation" title={identity?.organisationId}>
                {identity?.organisationName ?? `Organisation ${identity?.organisationId ?? ''}`}
              </Text>
            </Stack>
            <Button variant="default" size="xs" onClick={() => void logOut()}>Log out</Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Sections">
        {SECTIONS.map((s) => (
          <NavLink
            key={s.to}
            component={RouterLink}
            to={s.to}
            label={s.label}
            active={pathname === s.to || pathname.startsWith(`${s.to}/`)}
            onClick={close}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}
