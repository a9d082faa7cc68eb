import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList, useSearchedPages } from '../components/PagedList';
import { URL_AUTHS, type WebhookListItem } from './types';

const PAGE = 25;

/** Every webhook with its target and its requests counted by state; links to each one and to the whole log. */
export function WebhooksPage() {
  const { page, setPage, search, setSearch, searched } = useSearchedPages();
  const list = useLoad(
    () => ok(api.GET('/webhooks', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC', ...(searched ? { search_value: searched } : {}) } } })),
    [page, searched],
  );
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
      <PagedList
        list={list} what="the webhooks" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty={searched ? 'No webhook matches.' : 'No webhook yet.'}
        striped highlightOnHover scroll={{ minWidth: 760 }} rowTestId="webhook-row" rowKey={(w) => w.id}
        columns={[
          { header: 'Name', cell: (w) => <Anchor size="sm" component={Link} to={`/webhooks/${w.id}`}>{w.name}</Anchor> },
          { header: 'Target', cell: (w) => <Text size="sm" style={{ wordBreak: 'break-all' }}>{w.method} {w.url_endpoint}</Text> },
          { header: 'Authentication', cell: (w) => URL_AUTHS.find((a) => a.value === w.url_auth)?.label ?? w.url_auth },
          { header: 'Requests', cell: (w) => <Counts webhook={w} /> },
          { header: 'Created', cell: (w) => when(w.created_on) },
        ]}
      />
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
