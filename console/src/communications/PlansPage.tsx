import { Anchor, Badge, Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
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
      <PagedList list={list} what="the plans" empty={searched || state ? 'No plan matches.' : 'No plan yet.'} size={PAGE} page={page} onPage={setPage}>
        {(plans) => (
          <Table.ScrollContainer minWidth={820}>
            <Table striped highlightOnHover aria-label="Plans">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Name</Table.Th>
                  <Table.Th scope="col">State</Table.Th>
                  <Table.Th scope="col">Channel</Table.Th>
                  <Table.Th scope="col">Frequency (UTC)</Table.Th>
                  <Table.Th scope="col">Next tick ({tz})</Table.Th>
                  <Table.Th scope="col">From – until ({tz})</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {plans.map((p) => (
                  <Table.Tr key={p.id} data-testid="plan-row">
                    <Table.Td><Anchor size="sm" component={Link} to={`/communications/plans/${p.id}`}>{p.name}</Anchor></Table.Td>
                    <Table.Td><Badge variant="light" color={PLAN_COLOURS[p.life_cycle_state]}>{p.life_cycle_state}</Badge></Table.Td>
                    <Table.Td>{p.preferred_channel}</Table.Td>
                    <Table.Td><Text size="sm" ff="monospace">{p.frequency}</Text></Table.Td>
                    <Table.Td>{p.next_tick_on === null ? '—' : scheduleTime(p.next_tick_on * 1000, tz)}</Table.Td>
                    <Table.Td>{scheduleTime(p.start_date * 1000, tz)} – {p.end_date === null ? 'no end' : scheduleTime(p.end_date * 1000, tz)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
    </Section>
  );
}
