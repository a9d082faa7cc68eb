import { Stack, Tabs, Title } from '@mantine/core';
import { useLocation, useNavigate } from 'react-router';
import { AnalyticsPanel } from '../analytics/AnalyticsPanel';
import { Catalogue } from './Catalogue';

const TABS = [
  { value: 'reports', label: 'Reports', path: '/reports' },
  { value: 'analytics', label: 'Analytics', path: '/reports/analytics' },
];

/**
 * Reports and analytics (issue 24 part 5), one tab each with its own address: /reports (the
 * catalogue, preview, runs) and /reports/analytics (charts). Under the Reports entry of the
 * navigation, which stays marked on both.
 */
export function ReportsPage() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = pathname.startsWith('/reports/analytics') ? 'analytics' : 'reports';
  return (
    <Stack>
      <Title order={1} size="h2">Reports and analytics</Title>
      <Tabs value={current} onChange={(v) => v && navigate(TABS.find((t) => t.value === v)!.path)} keepMounted={false}>
        <Tabs.List>
          {TABS.map((t) => <Tabs.Tab key={t.value} value={t.value}>{t.label}</Tabs.Tab>)}
        </Tabs.List>
        <Tabs.Panel value="reports" pt="md"><Catalogue /></Tabs.Panel>
        <Tabs.Panel value="analytics" pt="md"><AnalyticsPanel /></Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
