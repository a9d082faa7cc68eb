import { Alert, Badge, Code, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';

/** One request's attempts (when, how long, the status code, the answer's body or the error) and the body sent. */
export function RequestDetail({ id, version }: { id: string; version: number }) {
  // `version` changes when the log reloads: a request still PENDING gains attempts meanwhile.
  const request = useLoad(() => ok(api.GET('/webhook_requests/{id}', { params: { path: { id } } })), [id, version]);
  if (request.error) return <Alert color="red" title="Cannot load the request">{request.error.message}</Alert>;
  if (!request.data) return <Loader size="sm" aria-label="Loading the request" />;
  const r = request.data;
  return (
    <Stack gap="xs" data-testid="request-detail">
      <Text size="sm">
        {r.method} {r.url_endpoint} · {r.url_auth}
        {r.automation && ` · automation “${r.automation.name}”`}
        {r.entity && ` · ${r.entity.type} ${r.entity.reference ?? r.entity.id ?? ''}`}
      </Text>
      {r.failure_reason && <Alert color="red" title="Stopped">{r.failure_reason}</Alert>}
      <Title order={3} size="h5">Attempts</Title>
      {r.attempts.length === 0 ? (
        <Text size="sm" c="dimmed">No attempt yet.</Text>
      ) : (
        <Table.ScrollContainer minWidth={600}>
          <Table withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">#</Table.Th>
                <Table.Th scope="col">Started</Table.Th>
                <Table.Th scope="col">Duration</Table.Th>
                <Table.Th scope="col">Response code</Table.Th>
                <Table.Th scope="col">Response body or error</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.attempts.map((a) => (
                <Table.Tr key={a.attempt} data-testid="attempt-row">
                  <Table.Td>{a.attempt}</Table.Td>
                  <Table.Td>{when(a.started_on)}</Table.Td>
                  <Table.Td>{a.duration_ms} ms</Table.Td>
                  <Table.Td>
                    {a.status_code === null ? <Text size="sm" c="dimmed">none</Text> : <Badge variant="light" color={a.status_code < 300 ? 'green' : 'red'}>{a.status_code}</Badge>}
                  </Table.Td>
                  <Table.Td>
                    {a.error && <Text size="sm" c="red">{a.error}</Text>}
                    {a.response !== null && a.response !== '' && <Code block>{a.response}</Code>}
                    {!a.error && !a.response && <Text size="sm" c="dimmed">empty</Text>}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Title order={3} size="h5">Body sent</Title>
      <Code block>{JSON.stringify(r.body, null, 2)}</Code>
    </Stack>
  );
}
