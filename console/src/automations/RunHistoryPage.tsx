import { Alert, Anchor, Badge, Button, Card, Code, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { actionOf, loadCatalogue } from './catalogue';
import { loadRuns, STATUS_COLOURS, temporalLink, when } from './runs';

/** An automation's runs, newest first: each action's outcome, why one was skipped or failed, and the run in the Temporal UI. */
export function RunHistoryPage() {
  const { id = '' } = useParams();
  const history = useLoad(async () => {
    const [catalogue, automation, actions] = await Promise.all([
      loadCatalogue(),
      ok(api.GET('/automations/{id}', { params: { path: { id } } })),
      ok(api.GET('/automations/{id}/actions', { params: { path: { id } } })),
    ]);
    return { catalogue, automation, runs: await loadRuns(id, actions.content, 20) };
  }, [id]);

  if (history.error) return <Alert color="red" title="Cannot load the run history">{history.error.message}</Alert>;
  if (!history.data) return <Loader aria-label="Loading" />;
  const { catalogue, automation, runs } = history.data;
  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">Runs of “{automation.name}”</Title>
        <Group>
          <Button variant="default" onClick={history.reload}>Refresh</Button>
          <Anchor component={Link} to={`/automations/${id}`}>Edit the automation</Anchor>
        </Group>
      </Group>
      {runs.length === 0 && <Text c="dimmed">No run yet. Runs appear when the automation is active and its event happens.</Text>}
      {runs.map((run) => {
        const link = temporalLink(run.workflowId);
        return (
          <Card withBorder key={run.eventId} component="section" aria-label={`Run of ${when(run.at)}`} data-testid="run">
            <Group justify="space-between" mb="xs">
              <Group gap="xs">
                <Badge color={STATUS_COLOURS[run.status]} data-testid="run-status">{run.status}</Badge>
                <Text fw={600}>{when(run.at)}</Text>
                <Text size="sm" c="dimmed">{run.eventType} · {run.entity.reference ?? run.entity.id}</Text>
              </Group>
              {link ? (
                <Anchor href={link} target="_blank" rel="noreferrer" size="sm">Open in the Temporal UI</Anchor>
              ) : (
                <Text size="xs" c="dimmed">Workflow <Code>{run.workflowId}</Code></Text>
              )}
            </Group>
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Action</Table.Th>
                  <Table.Th scope="col" w={140}>Outcome</Table.Th>
                  <Table.Th scope="col">Reason or result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.steps.map((r) => (
                  <Table.Tr key={r.id}>
                    <Table.Td>{actionOf(catalogue, r.adaptor, r.adaptor_action)?.name ?? r.adaptor_action}</Table.Td>
                    <Table.Td><Badge variant="light" color={STATUS_COLOURS[r.status]}>{r.status}</Badge></Table.Td>
                    <Table.Td>
                      {r.reason ?? (
                        <Text size="sm" c="dimmed">
                          {r.record_attributes.filter((x) => x.value !== null && x.key !== 'status').map((x) => `${x.label}: ${x.value}`).join(' · ')}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Card>
        );
      })}
    </Stack>
  );
}
