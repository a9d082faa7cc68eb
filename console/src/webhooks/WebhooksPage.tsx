import { Alert, Anchor, Badge, Button, Group, Loader, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { URL_AUTHS, type WebhookListItem } from './types';

const PAGE = 25;

/** Every webhook with its target and its requests counted by state; links to each one and to the whole log. */
export function WebhooksPage() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  useEffect(() => setPage(1), [searched]);
  const list = useLoad(
    () => ok(api.GET('/webhooks', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC', ...(searched ? { search_value: searched } : {}) } } })),
    [page, searched],
  );
  const data = list.data;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Webhooks</Title>
        <Group>
          <Button variant="default" component={Link} to="/webhooks/requests">Request log</Button>
          <Button component={Link} to="/webhooks/new">New webhook</Button>
        </Group>
      </Group>
      <TextInput label="Search" placeholder="Name or URL" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={300} />
      {list.error && <Alert color="red" title="Cannot load the webhooks">{list.error.message}</Alert>}
      {!data && !list.error && <Loader aria-label="Loading" />}
      {data && data.content.length === 0 && <Text c="dimmed">{searched ? 'No webhook matches.' : 'No webhook yet.'}</Text>}
      {data && data.content.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Target</Table.Th>
                <Table.Th scope="col">Authentication</Table.Th>
                <Table.Th scope="col">Requests</Table.Th>
                <Table.Th scope="col">Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.content.map((w) => (
                <Table.Tr key={w.id} data-testid="webhook-row">
                  <Table.Td>
                    <Anchor size="sm" component={Link} to={`/webhooks/${w.id}`}>{w.name}</Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ wordBreak: 'break-all' }}>{w.method} {w.url_endpoint}</Text>
                  </Table.Td>
                  <Table.Td>{URL_AUTHS.find((a) => a.value === w.url_auth)?.label ?? w.url_auth}</Table.Td>
                  <Table.Td><Counts webhook={w} /></Table.Td>
                  <Table.Td>{when(w.created_on)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {data && data.paging.total > PAGE && <Pagination total={Math.ceil(data.paging.total / PAGE)} value={page} onChange={setPage} aria-label="Pages" />}
    </Stack>
  );
}

/** Pending, successful and failed requests of a webhook, as the API counts them. */
export function Counts({ webhook }: { webhook: Pick<WebhookListItem, 'pending_requests' | 'successful_requests' | 'failed_requests'> }) {
  return (
    <Group gap={4} wrap="nowrap" data-testid="request-counts">
      <Badge variant="light" color="yellow" title="Pending requests">{webhook.pending_requests} pending</Badge>
      <Badge variant="light" color="green" title="Successful requests">{webhook.successful_requests} successful</Badge>
      <Badge variant="light" color="red" title="Failed requests">{webhook.failed_requests} failed</Badge>
    </Group>
  );
}
