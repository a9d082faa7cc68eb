import { Alert, Anchor, Badge, Button, Group, Loader, Pagination, Select, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { Fragment, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { RequestDetail } from './RequestDetail';
import { REQUEST_STATES, STATE_COLOURS, type RequestQuery, type RequestState } from './types';

const PAGE = 20;
/** While a request shown is PENDING the log reads again this often, so a result appears by itself. */
const FOLLOW_MS = 2000;

interface Props {
  /** One webhook's requests; without it every request, with the webhook's name and a text search. */
  webhookId?: string;
  /** Changed by the page after it made a request (a test): the log reads again at once. */
  version?: number;
  /** After each read of the log: the webhook's page reads its counts again. */
  onLoaded?: () => void;
}

/** The webhook request log, newest first: state, response code, retries; a row opens its attempts. */
export function RequestLog({ webhookId, version = 0, onLoaded }: Props) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<RequestState | null>(null);
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  const [open, setOpen] = useState<string>();
  const [tick, setTick] = useState(0);
  useEffect(() => setPage(1), [state, searched]);
  const query: RequestQuery = { page, size: PAGE, webhook_id: webhookId, ...(state ? { state } : {}), ...(searched ? { search_value: searched } : {}) };
  const log = useLoad(() => ok(api.GET('/webhook_requests', { params: { query } })), [webhookId, page, state, searched, version, tick]);

  useEffect(() => {
    if (log.data) onLoaded?.();
  }, [log.data]);

  const pending = log.data?.content.some((r) => r.state === 'PENDING') ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setTick((t) => t + 1), FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [pending, log.data]);

  const rows = log.data?.content ?? [];
  return (
    <>
      <Group align="flex-end">
        {!webhookId && <TextInput label="Search" placeholder="Webhook name or URL" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={260} />}
        <Select label="State" placeholder="Any" data={REQUEST_STATES} value={state} onChange={(v) => setState(v as RequestState | null)} clearable w={160} />
        <Button variant="default" onClick={() => setTick((t) => t + 1)}>Refresh</Button>
        {pending && <Text size="sm" c="dimmed">Following pending requests…</Text>}
      </Group>
      {log.error && <Alert color="red" title="Cannot load the request log">{log.error.message}</Alert>}
      {!log.data && !log.error && <Loader aria-label="Loading the request log" />}
      {log.data && rows.length === 0 && <Text c="dimmed">No request{state ? ` in state ${state}` : ''} yet.</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped aria-label="Webhook requests">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Created</Table.Th>
                {!webhookId && <Table.Th scope="col">Webhook</Table.Th>}
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">State</Table.Th>
                <Table.Th scope="col">Response code</Table.Th>
                <Table.Th scope="col">Retries</Table.Th>
                <Table.Th scope="col">Details</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Fragment key={r.id}>
                  <Table.Tr data-testid="request-row" data-request-id={r.id}>
                    <Table.Td>{when(r.created_on)}</Table.Td>
                    {!webhookId && (
                      <Table.Td>
                        {r.webhook.id ? <Anchor size="sm" component={Link} to={`/webhooks/${r.webhook.id}`}>{r.webhook.name}</Anchor> : `${r.webhook.name} (deleted)`}
                      </Table.Td>
                    )}
                    <Table.Td>{r.type}</Table.Td>
                    <Table.Td><Badge color={STATE_COLOURS[r.state]} data-testid="request-state">{r.state}</Badge></Table.Td>
                    <Table.Td data-testid="request-status">{r.response_status ?? '—'}</Table.Td>
                    <Table.Td>{r.retries}</Table.Td>
                    <Table.Td>
                      <Button
                        size="xs"
                        variant="subtle"
                        aria-expanded={open === r.id}
                        aria-controls={`request-${r.id}`}
                        onClick={() => setOpen(open === r.id ? undefined : r.id)}
                      >
                        {open === r.id ? 'Hide attempts' : 'Show attempts'}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                  {open === r.id && (
                    <Table.Tr id={`request-${r.id}`}>
                      <Table.Td colSpan={webhookId ? 6 : 7}>
                        <RequestDetail id={r.id} version={tick + version} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {log.data && log.data.paging.total > PAGE && (
        <Pagination total={Math.ceil(log.data.paging.total / PAGE)} value={page} onChange={setPage} aria-label="Pages of the request log" />
      )}
    </>
  );
}
