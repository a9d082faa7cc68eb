import { Anchor, Badge, Button, Group, Select, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList, useSearchedPages } from '../components/PagedList';
import { RequestDetail } from './RequestDetail';
import { REQUEST_STATES, STATE_COLOURS, type RequestQuery, type RequestState, type WebhookRequest } from './types';

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
  const [state, setState] = useState<RequestState | null>(null);
  const { page, setPage, search, setSearch, searched } = useSearchedPages(state);
  const [open, setOpen] = useState<string>();
  const [tick, setTick] = useState(0);
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

  return (
    <>
      <Group align="flex-end">
        {!webhookId && <TextInput label="Search" placeholder="Webhook name or URL" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={260} />}
        <Select label="State" placeholder="Any" data={REQUEST_STATES} value={state} onChange={(v) => setState(v as RequestState | null)} clearable w={160} />
        <Button variant="default" onClick={() => setTick((t) => t + 1)}>Refresh</Button>
        {pending && <Text size="sm" c="dimmed">Following pending requests…</Text>}
      </Group>
      <PagedList
        list={log} what="the request log" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty={`No request${state ? ` in state ${state}` : ''} yet.`}
        aria-label="Webhook requests" striped scroll={{ minWidth: 760 }} rowTestId="request-row" rowKey={(r) => r.id} rowData={(r) => ({ 'data-request-id': r.id })}
        detail={(r) => (open === r.id ? { id: `request-${r.id}`, content: <RequestDetail id={r.id} version={tick + version} /> } : undefined)}
        columns={[
          { header: 'Created', cell: (r) => when(r.created_on) },
          ...(webhookId ? [] : [{ header: 'Webhook', cell: (r: WebhookRequest) => (r.webhook.id ? <Anchor size="sm" component={Link} to={`/webhooks/${r.webhook.id}`}>{r.webhook.name}</Anchor> : `${r.webhook.name} (deleted)`) }]),
          { header: 'Type', cell: (r) => r.type },
          { header: 'State', cell: (r) => <Badge color={STATE_COLOURS[r.state]} data-testid="request-state">{r.state}</Badge> },
          { header: 'Response code', cell: (r) => r.response_status ?? '—', testId: 'request-status' },
          { header: 'Retries', cell: (r) => r.retries },
          {
            header: 'Details',
            cell: (r) => (
              <Button size="xs" variant="subtle" aria-expanded={open === r.id} aria-controls={`request-${r.id}`} onClick={() => setOpen(open === r.id ? undefined : r.id)}>
                {open === r.id ? 'Hide attempts' : 'Show attempts'}
              </Button>
            ),
          },
        ]}
      />
    </>
  );
}
