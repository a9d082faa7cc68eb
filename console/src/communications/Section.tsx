import { Stack, Tabs, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';

const TABS = [
  { value: '/communications', label: 'Sent messages' },
  { value: '/communications/templates', label: 'Templates' },
  { value: '/communications/plans', label: 'Plans' },
  { value: '/communications/segments', label: 'Segments' },
];

/** The Communications section's heading and tabs (each tab its own address), above the page's own content. */
export function Section({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = [...TABS].reverse().find((t) => pathname === t.value || pathname.startsWith(`${t.value}/`))?.value;
  // A message's page (/communications/messages/…) belongs to the first tab.
  const value = current === '/communications' || !current ? '/communications' : current;
  return (
    <Stack>
      <Title order={1} size="h2">Communications</Title>
      <Tabs value={value} onChange={(v) => v && navigate(v)}>
        <Tabs.List aria-label="Communications">
          {TABS.map((t) => <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>)}
        </Tabs.List>
        <Tabs.Panel value={value} pt="md">{children}</Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
