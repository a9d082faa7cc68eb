import { Alert, Anchor, Badge, Button, Group, Loader, Pagination, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import type { Automation } from '../api/types';
import { useLoad } from '../api/useLoad';
import { eventName, entityOf, loadCatalogue } from './catalogue';
import { loadRuns, stateLabel, STATUS_COLOURS } from './runs';
import { when } from '../components/format';

const PAGE = 25;

/** Every automation with its trigger, state and last runs; a switch activates or deactivates one. */
export function AutomationsPage() {
  const [page, setPage] = useState(1);
  const list = useLoad(async () => {
    const [catalogue, automations] = await Promise.all([loadCatalogue(), ok(api.GET('/automations', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC' } } }))]);
    return { catalogue, automations };
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

  const data = list.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Automations</Title>
        <Button component={Link} to="/automations/new">New automation</Button>
      </Group>
      {list.error && <Alert color="red" title="Cannot load the automations">{list.error.message}</Alert>}
      {!data && !list.error && <Loader aria-label="Loading" />}
      {data && data.automations.content.length === 0 && <Text c="dimmed">No automation yet.</Text>}
      {data && data.automations.content.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Trigger</Table.Th>
                <Table.Th scope="col">Actions</Table.Th>
                <Table.Th scope="col">Active</Table.Th>
                <Table.Th scope="col">Last runs</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.automations.content.map((a) => (
                <Table.Tr key={a.id} data-testid="automation-row">
                  <Table.Td>
                    <Anchor component={Link} to={`/automations/${a.id}`}>{a.name}</Anchor>
                  </Table.Td>
                  <Table.Td>
                    {entityOf(data.catalogue, a.entity)?.name ?? a.entity}: {eventName(data.catalogue, a.entity, a.event)}
                  </Table.Td>
                  <Table.Td>{a.action_count}</Table.Td>
                  <Table.Td>
                    <Switch
                      checked={a.life_cycle_state === 'ACTIVE'}
                      onChange={(e) => setActive(a, e.currentTarget.checked)}
                      aria-label={`${a.name} active`}
                      label={a.life_cycle_state === 'ACTIVE' ? 'Active' : 'Inactive'}
                    />
                  </Table.Td>
                  <Table.Td>
                    <LastRuns automationId={a.id} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {data && data.automations.paging.total > PAGE && (
        <Pagination total={Math.ceil(data.automations.paging.total / PAGE)} value={page} onChange={setPage} aria-label="Pages" />
      )}
    </Stack>
  );
}

/** The three latest runs' outcomes, with a link to the history. */
function LastRuns({ automationId }: { automationId: string }) {
  const runs = useLoad(async () => (await loadRuns(automationId, 1, 3)).runs, [automationId]);
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
