import { Badge, Group, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { money, when } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { FeedItem } from './types';

const PAGE = 25;
const TYPES = ['PURCHASE', 'AWARD', 'SPEND', 'TOPUP', 'TRANSFER', 'VOID', 'CREDIT', 'DEBIT', 'RETURN', 'EXPIRY', 'VOUCHER_USE'];

/** What the row is about beyond its type and amount: the merchant, the offer, the books a transfer moved between. */
function detailsOf(a: FeedItem): string {
  const entity = (e: FeedItem['transfer_origin_entity']) => (e ? `${e.type.toLowerCase()} ${e.number}` : '?');
  const parts = [
    a.merchant_name && `at ${a.merchant_name}`,
    a.reward_offer && `offer ${a.reward_offer}`,
    a.topup_entity && `top-up of ${entity(a.topup_entity)}`,
    (a.transfer_origin_entity || a.transfer_dest_entity) && `from ${entity(a.transfer_origin_entity)} to ${entity(a.transfer_dest_entity)}`,
    a.notes,
  ];
  return parts.filter(Boolean).join('; ');
}

/** GET /contacts/{id}/activity_feed, newest first, by type and day. */
export function ActivityTab({ contactId }: { contactId: string }) {
  const [page, setPage] = useState(1);
  const [type, setType] = useState<string | null>(null);
  const [date, setDate] = useState('');
  const feed = useLoad(
    () => ok(api.GET('/contacts/{id}/activity_feed', { params: { path: { id: contactId }, query: { page, size: PAGE, ...(type ? { activity_type: type } : {}), ...(date ? { created_date: date } : {}) } } })),
    [contactId, page, type, date],
  );
  const dateError = feed.error ? placeError(feed.error, (a) => (a === 'created_date' ? a : undefined)) : undefined;
  return (
    <Stack>
      <Group align="flex-start">
        <Select label="Activity" data={TYPES} value={type} onChange={(v) => (setType(v), setPage(1))} clearable placeholder="Any" w={180} />
        <TextInput label="On the day (UTC)" type="date" value={date} onChange={(e) => (setDate(e.currentTarget.value), setPage(1))} error={dateError?.field ? dateError.message : undefined} />
      </Group>
      {!dateError?.field && (
        <PagedList
          list={feed} what="the activity" rows={(d) => d.activity_feed} size={PAGE} page={page} onPage={setPage} compact
          empty="No activity."
          aria-label="Activity feed" striped scroll={{ minWidth: 820 }} rowTestId="activity-row" rowKey={(a) => `${a.activity_type}-${a.id}`}
          columns={[
            { header: 'When', cell: (a) => when(a.created_date) },
            { header: 'Activity', cell: (a) => a.activity_type },
            { header: 'Direction', cell: (a) => <Badge variant="light" color={a.direction === 'INCOMING' ? 'green' : 'orange'}>{a.direction === 'INCOMING' ? 'In' : 'Out'}</Badge> },
            { header: 'Number', cell: (a) => a.number ?? a.reference_number ?? a.code ?? '—' },
            { header: 'Amount', align: 'right', cell: (a) => money(a.total_amount, a.currency) },
            { header: 'State', cell: (a) => a.state },
            { header: 'Details', cell: (a) => detailsOf(a) || '—' },
          ]}
        />
      )}
    </Stack>
  );
}
