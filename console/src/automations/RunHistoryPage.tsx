import { Alert, Anchor, Badge, Button, Card, Code, Group, Loader, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { actionOf, entityOf, loadCatalogue } from './catalogue';
import { explainReason, loadRuns, stateLabel, STATUS_COLOURS, temporalLink } from './runs';
import { when } from '../components/format';
import type { RunAction } from '../api/types';

const PAGE = 20;

/** An automation's runs, newest first: each action's outcome, why one was skipped or failed, and the run in the Temporal UI. */
export function RunHistoryPage() {
  const { id = '' } = useParams();
  const [page, setPage] = useState(1);
  const history = useLoad(async () => {
    const [catalogue, automation, runs] = await Promise.all([
      loadCatalogue(),
      ok(api.GET('/automations/{id}', { params: { path: { id } } })),
      loadRuns(id, page, PAGE),
    ]);
    return { catalogue, automation, ...runs };
  }, [id, page]);

  if (history.error) return <Alert color="red" title="Cannot load the run history">{history.error.message}</Alert>;
  if (!history.data) return <Loader aria-label="Loading" />;
  const { catalogue, automation, runs, total } = history.data;
  const attributes = entityOf(catalogue, automation.entity)?.attributes ?? [];
  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">Runs of “{automation.name}”</Title>
        <Group>
          <Button variant="default" onClick={history.reload}>Refresh</Button>
          <Anchor component={Link} to={`/automations/${id}`}>Edit the automation</Anchor>
        </Group>
      </Group>
      {total === 0 && <Text c="dimmed">No run yet. Runs appear when the automation is active and its event happens.</Text>}
      {runs.map((run) => {
        const link = temporalLink(run.workflow_id);
        return (
          <Card withBorder key={run.id} component="section" aria-label={`Run of ${when(run.event.occurred_on)}`} data-testid="run">
            <Group justify="space-between" mb="xs">
              <Group gap="xs">
                <Badge color={STATUS_COLOURS[run.state]} data-testid="run-status">{stateLabel(run.state)}</Badge>
                <Text fw={600}>{when(run.event.occurred_on)}</Text>
                <Text size="sm" c="dimmed">{run.event.type} · {run.entity.reference ?? run.entity.id}</Text>
              </Group>
              {link ? (
                <Anchor href={link} target="_blank" rel="noreferrer" size="sm">Open in the Temporal UI</Anchor>
              ) : (
                <Text size="xs" c="dimmed">Workflow <Code>{run.workflow_id}</Code></Text>
              )}
            </Group>
            {run.reason && <Text size="sm" c="red" mb="xs" data-testid="run-reason">Stopped: {run.reason}</Text>}
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col" w={40}>#</Table.Th>
                  <Table.Th scope="col">Action</Table.Th>
                  <Table.Th scope="col" w={140}>Outcome</Table.Th>
                  <Table.Th scope="col">Reason or result</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {run.actions.map((a) => (
                  <Table.Tr key={a.record_id}>
                    <Table.Td>{a.order}</Table.Td>
                    <Table.Td>{actionOf(catalogue, a.adaptor, a.adaptor_action)?.name ?? a.adaptor_action}</Table.Td>
                    <Table.Td><Badge variant="light" color={STATUS_COLOURS[a.status]}>{a.status}</Badge></Table.Td>
                    <Table.Td>
                      {a.reason ? explainReason(a.reason, attributes) : <ActionResult attributes={a.record_attributes} />}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {run.state === 'RUNNING' && <Text size="xs" c="dimmed" mt="xs">Further actions are still to come.</Text>}
          </Card>
        );
      })}
      {total > PAGE && <Pagination total={Math.ceil(total / PAGE)} value={page} onChange={setPage} aria-label="Pages" />}
    </Stack>
  );
}

/** Where an action's result can be looked at in the console: a link instead of its id. */
const RESULT_LINKS: Record<string, { to: (id: string) => string; text: string }> = {
  communication_id: { to: (id) => `/communications/messages/${id}`, text: 'the message' },
  webhook_request_id: { to: (id) => `/webhooks/requests?request=${id}`, text: 'the request and its attempts' },
  webhook_id: { to: (id) => `/webhooks/${id}`, text: 'its page' },
};

function ActionResult({ attributes }: { attributes: RunAction['record_attributes'] }) {
  const shown = attributes.filter((x) => x.value !== null && x.key !== 'status');
  return (
    <Text size="sm" c="dimmed">
      {shown.map((x, i) => {
        const link = RESULT_LINKS[x.key];
        return (
          <Fragment key={x.key}>
            {i > 0 && ' · '}
            {x.label}:{' '}
            {link ? (
              <Anchor component={Link} to={link.to(String(x.value))} size="sm">{link.text}</Anchor>
            ) : x.type === 'DATE' ? when(Number(x.value)) : x.value}
          </Fragment>
        );
      })}
    </Text>
  );
}
