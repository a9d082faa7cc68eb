import { Alert, Badge, Code, Stack, Text, Title } from '@mantine/core';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { DataTable } from '../components/DataTable';
import { when } from '../components/format';
import { Loading } from '../components/Loading';

/** One request's attempts (when, how long, the status code, the answer's body or the error) and the body sent. */
export function RequestDetail({ id, version }: { id: string; version: number }) {
  // `version` changes when the log reloads: a request still PENDING gains attempts meanwhile.
  const request = useLoad(() => ok(api.GET('/webhook_requests/{id}', { params: { path: { id } } })), [id, version]);
  return (
    <Loading loaded={request} what="the request" compact>
      {(r) => (
        <Stack gap="xs" data-testid="request-detail">
          <Text size="sm">
            {r.method} {r.url_endpoint} · {r.url_auth}
            {r.automation && ` · automation “${r.automation.name}”`}
            {r.entity && ` · ${r.entity.type} ${r.entity.reference ?? r.entity.id ?? ''}`}
          </Text>
          {r.failure_reason && <Alert color="red" title="Stopped">{r.failure_reason}</Alert>}
          <Title order={3} size="h5">Attempts</Title>
          <DataTable
            rows={r.attempts} compact
            empty="No attempt yet."
            withTableBorder scroll={{ minWidth: 600 }} rowTestId="attempt-row" rowKey={(a) => a.attempt}
            columns={[
              { header: '#', cell: (a) => a.attempt },
              { header: 'Started', cell: (a) => when(a.started_on) },
              { header: 'Duration', cell: (a) => `${a.duration_ms} ms` },
              {
                header: 'Response code',
                cell: (a) => (a.status_code === null ? <Text size="sm" c="dimmed">none</Text> : <Badge variant="light" color={a.status_code < 300 ? 'green' : 'red'}>{a.status_code}</Badge>),
              },
              {
                header: 'Response body or error',
                cell: (a) => (
                  <>
                    {a.error && <Text size="sm" c="red">{a.error}</Text>}
                    {a.response !== null && a.response !== '' && <Code block>{a.response}</Code>}
                    {!a.error && !a.response && <Text size="sm" c="dimmed">empty</Text>}
                  </>
                ),
              },
            ]}
          />
          <Title order={3} size="h5">Body sent</Title>
          <Code block>{JSON.stringify(r.body, null, 2)}</Code>
        </Stack>
      )}
    </Loading>
  );
}
