import { Anchor, Badge, Button, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import type { Automation } from '../api/types';
import { useLoad } from '../api/useLoad';
import { eventName, entityOf, loadCatalogue } from './catalogue';
import { loadRuns, stateLabel, STATUS_COLOURS } from './runs';
import { lastDays, loadPerformance, totals } from './simulations';
import { when } from '../components/format';
import { PagedList } from '../components/PagedList';

const PAGE = 25;

/** Every automation with its trigger, state and last runs; a switch activates or deactivates one. */
export function AutomationsPage() {
  const [page, setPage] = useState(1);
  const list = useLoad(async () => {
    const [catalogue, automations] = await Promise.all([loadCatalogue(), ok(api.GET('/automations', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC' } } }))]);
    const trigger = (a: Automation) => `${entityOf(catalogue, a.entity)?.name ?? a.entity}: ${eventName(catalogue, a.entity, a.event)}`;
    return { ...automations, content: automations.content.map((a) => ({ ...a, trigger: trigger(a) })) };
  }, [page]);

  async function setActive(a: Automation, active: boolean) {
    try {
      await ok(api.PUT('/automations/{id}', { params: { path: { id: a.id } }, body: { state: active ? 'ACTIVE' : 'INACTIVE' } }));
      notifications.show({ message: `“${a.name}” is ${active ? 'active' : 'inactive'}` });
      list.reload();
    } catch (err) {
      notifications.show({ color: 'red', title: 'Not changed', message: messageOf(err) });
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Automations</Title>
        <Button component={Link} to="/automations/new">New automation</Button>
      </Group>
      <PagedList
        list={list} what="the automations" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty="No automation yet."
        striped highlightOnHover scroll={{ minWidth: 860 }} rowTestId="automation-row" rowKey={(a) => a.id}
        columns={[
          { header: 'Name', cell: (a) => <Anchor component={Link} to={`/automations/${a.id}`}>{a.name}</Anchor> },
          { header: 'Trigger', cell: (a) => a.trigger },
          { header: 'Actions', cell: (a) => a.action_count },
          {
            header: 'Active',
            cell: (a) => (
              <Switch
                checked={a.life_cycle_state === 'ACTIVE'}
                onChange={(e) => setActive(a, e.currentTarget.checked)}
                aria-label={`${a.name} active`}
                label={a.life_cycle_state === 'ACTIVE' ? 'Active' : 'Inactive'}
              />
            ),
          },
          { header: 'Last 7 days', cell: (a) => <RecentRuns automationId={a.id} /> },
          { header: 'Last runs', cell: (a) => <LastRuns automationId={a.id} /> },
        ]}
      />
    </Stack>
  );
}

/**
 * Runs and failures of the last 7 UTC days (today included), from GET /automations/{id}/performance:
 * one call per row shown, and the page shows at most 25. A failure is a FAILED run (a rejection is
 * an approver's decision, not a fault).
 */
function RecentRuns({ automationId }: { automationId: string }) {
  const perf = useLoad(() => {
    const { from, to } = lastDays(7);
    return loadPerformance(automationId, from, to);
  }, [automationId]);
  if (perf.error) return <Text size="sm" c="red">{perf.error.message}</Text>;
  if (!perf.data) return <Loader size="xs" aria-label="Loading the last 7 days" />;
  const sum = totals(perf.data);
  return (
    <Text size="sm" data-testid="recent-runs">
      <span data-testid="recent-runs-all">{sum.all}</span> runs, <Text span size="sm" c={sum.FAILED > 0 ? 'red' : undefined} data-testid="recent-runs-failed">{sum.FAILED}</Text> failed
    </Text>
  );
}

/** The three latest runs' outcomes, with a link to the history. */
function LastRuns({ automationId }: { automationId: string }) {
  const runs = useLoad(async () => (await loadRuns(automationId, 1, 3)).content, [automationId]);
  if (runs.error) return <Text size="sm" c="red">{runs.error.message}</Text>;
  if (!runs.data) return <Loader size="xs" aria-label="Loading runs" />;
  return (
    <Group gap={4}>
      {runs.data.length === 0 && <Text size="sm" c="dimmed">None yet</Text>}
      {runs.data.map((r) => (
        <Badge key={r.id} color={STATUS_COLOURS[r.state]} variant="light" title={when(r.event.occurred_on)}>{stateLabel(r.state)}</Badge>
      ))}
      <Anchor size="sm" component={Link} to={`/automations/${automationId}/runs`}>History</Anchor>
    </Group>
  );
}
