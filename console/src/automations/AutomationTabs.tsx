import { Tabs } from '@mantine/core';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { Catalogue } from './catalogue';
import { PerformancePanel } from './PerformancePanel';
import { ReplayPanel } from './ReplayPanel';
import { TryItPanel } from './TryItPanel';

const TABS = ['definition', 'try', 'replay', 'performance'] as const;
type Tab = (typeof TABS)[number];

/**
 * A saved automation's page: the builder (`definition`), and what it would do and did: Try it on
 * one record, Replay over history (both before it is activated too) and its Performance. The tab
 * and the replay shown are in the address (`?tab=replay&replay=<id>`), so a link opens them.
 */
export function AutomationTabs({ automationId, entity, catalogue, definition }: { automationId: string; entity: string; catalogue: Catalogue; definition: ReactNode }) {
  const [params, setParams] = useSearchParams();
  const tab: Tab = TABS.find((t) => t === params.get('tab')) ?? 'definition';
  const go = (next: Tab, replay?: string) => setParams({ ...(next === 'definition' ? {} : { tab: next }), ...(replay ? { replay } : {}) }, { replace: true });
  return (
    <Tabs value={tab} onChange={(v) => v && go(v as Tab)} keepMounted={false}>
      <Tabs.List aria-label="Automation">
        <Tabs.Tab value="definition">Definition</Tabs.Tab>
        <Tabs.Tab value="try">Try it</Tabs.Tab>
        <Tabs.Tab value="replay">Replay</Tabs.Tab>
        <Tabs.Tab value="performance">Performance</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="definition" pt="md">{definition}</Tabs.Panel>
      <Tabs.Panel value="try" pt="md"><TryItPanel automationId={automationId} entity={entity} catalogue={catalogue} /></Tabs.Panel>
      <Tabs.Panel value="replay" pt="md">
        <ReplayPanel automationId={automationId} entity={entity} catalogue={catalogue} shown={params.get('replay') ?? undefined} onShow={(id) => go('replay', id)} />
      </Tabs.Panel>
      <Tabs.Panel value="performance" pt="md"><PerformancePanel automationId={automationId} /></Tabs.Panel>
    </Tabs>
  );
}
