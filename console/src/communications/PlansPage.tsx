import { Anchor, Badge, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { PagedList, useSearchedPages } from '../components/PagedList';
import { Section } from './Section';
import { PLAN_COLOURS, type PlanState } from './types';
import { scheduleTime, useOrganisationZone } from '../components/zone';

const PAGE = 25;

/** The plans with their state, channel, frequency and the next tick the service counts (on the organisation's clock). */
export function PlansPage() {
  const [state, setState] = useState<PlanState | null>(null);
  const { page, setPage, search, setSearch, searched } = useSearchedPages(state);
  const zone = useOrganisationZone();
  const list = useLoad(
    () =>
      ok(api.GET('/communication_plans', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC', ...(searched ? { name: searched } : {}), ...(state ? { life_cycle_state: state } : {}) } } })),
    [page, searched, state],
  );
  const tz = zone?.name ?? 'UTC';
  return (
    <Section>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput label="Search" placeholder="Part of the name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={260} />
          <Select label="State" data={['DRAFT', 'POSTED']} value={state} onChange={(v) => setState(v as PlanState | null)} clearable placeholder="Any" w={150} />
        </Group>
        <Button component={Link} to="/communications/plans/new">New plan</Button>
      </Group>
      <PagedList
        list={list} what="the plans" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty={searched || state ? 'No plan matches.' : 'No plan yet.'}
        aria-label="Plans" striped highlightOnHover scroll={{ minWidth: 820 }} rowTestId="plan-row" rowKey={(p) => p.id}
        columns={[
          { header: 'Name', cell: (p) => <Anchor size="sm" component={Link} to={`/communications/plans/${p.id}`}>{p.name}</Anchor> },
          { header: 'State', cell: (p) => <Badge variant="light" color={PLAN_COLOURS[p.life_cycle_state]}>{p.life_cycle_state}</Badge> },
          { header: 'Channel', cell: (p) => p.preferred_channel },
          { header: 'Frequency (UTC)', cell: (p) => <Text size="sm" ff="monospace">{p.frequency}</Text> },
          { header: `Next tick (${tz})`, cell: (p) => (p.next_tick_on === null ? '—' : scheduleTime(p.next_tick_on * 1000, tz)) },
          { header: `From – until (${tz})`, cell: (p) => `${scheduleTime(p.start_date * 1000, tz)} – ${p.end_date === null ? 'no end' : scheduleTime(p.end_date * 1000, tz)}` },
        ]}
      />
    </Section>
  );
}
