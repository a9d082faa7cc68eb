import { Anchor, Badge, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { actionOf, entityOf, loadCatalogue, type Catalogue } from './catalogue';
import { explainReason, loadRuns, stateLabel, STATUS_COLOURS, temporalLink } from './runs';
import { DataTable } from '../components/DataTable';
import { when } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { AutomationRun, RunAction } from '../api/types';

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
    return { ...runs, catalogue, automation };
  }, [id, page]);

  return (
    <Stack maw={1100}>
      <PagedList
        list={history} what="the run history" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty="No run yet. Runs appear when the automation is active and its event happens."
        above={({ automation }) => (
          <Group justify="space-between">
            <Title order={1} size="h2">Runs of “{automation.name}”</Title>
            <Group>
              <Button variant="default" onClick={history.reload}>Refresh</Button>
              <Anchor component={Link} to={`/automations/${id}`}>Edit the automation</Anchor>
            </Group>
          </Group>
        )}
      >
        {(runs, { catalogue, automation }) => runs.map((run) => <RunCard key={run.id} run={run} catalogue={catalogue} entity={automation.entity} />)}
      </PagedList>
    </Stack>
  );
}

/** A run: its state, event and record, the link to its workflow, and each action it reached with its outcome. */
function RunCard({ run, catalogue, entity }: { run: AutomationRun; catalogue: Catalogue; entity: string }) {
  const link = temporalLink(run.workflow_id);
  const attributes = entityOf(catalogue, entity)?.attributes ?? [];
  return (
    <Card withBorder component="section" aria-label={`Run of ${when(run.event.occurred_on)}`} data-testid="run">
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
      <DataTable
        rows={run.actions} rowKey={(a) => a.record_id}
        columns={[
          { header: '#', w: 40, cell: (a) => a.order },
          { header: 'Action', cell: (a) => actionOf(catalogue, a.adaptor, a.adaptor_action)?.name ?? a.adaptor_action },
          { header: 'Outcome', w: 140, cell: (a) => <Badge variant="light" color={STATUS_COLOURS[a.status]}>{a.status}</Badge> },
          { header: 'Reason or result', cell: (a) => (a.reason ? explainReason(a.reason, attributes) : <ActionResult attributes={a.record_attributes} />) },
        ]}
      />
      {run.state === 'RUNNING' && <Text size="xs" c="dimmed" mt="xs">Further actions are still to come.</Text>}
    </Card>
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
