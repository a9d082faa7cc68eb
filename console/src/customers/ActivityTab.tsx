import { Badge, Group, Select, Stack, Table, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { money, when } from '../components/format';
import type { FeedItem } from './types';
import { Empty, Loading, Pages } from './ui';

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
        <Loading loaded={feed} what="the activity">
          {(data) => (
            <>
              {data.activity_feed.length === 0 ? <Empty>No activity.</Empty> : (
                <Table.ScrollContainer minWidth={820}>
                  <Table striped aria-label="Activity feed">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">When</Table.Th>
                        <Table.Th scope="col">Activity</Table.Th>
                        <Table.Th scope="col">Direction</Table.Th>
                        <Table.Th scope="col">Number</Table.Th>
                        <Table.Th scope="col" ta="right">Amount</Table.Th>
                        <Table.Th scope="col">State</Table.Th>
                        <Table.Th scope="col">Details</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {data.activity_feed.map((a) => (
                        <Table.Tr key={`${a.activity_type}-${a.id}`} data-testid="activity-row">
                          <Table.Td>{when(a.created_date)}</Table.Td>
                          <Table.Td>{a.activity_type}</Table.Td>
                          <Table.Td><Badge variant="light" color={a.direction === 'INCOMING' ? 'green' : 'orange'}>{a.direction === 'INCOMING' ? 'In' : 'Out'}</Badge></Table.Td>
                          <Table.Td>{a.number ?? a.reference_number ?? a.code ?? '—'}</Table.Td>
                          <Table.Td ta="right">{money(a.total_amount, a.currency)}</Table.Td>
                          <Table.Td>{a.state}</Table.Td>
                          <Table.Td>{detailsOf(a) || '—'}</Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              )}
              <Pages total={data.paging.total} size={PAGE} page={page} onChange={setPage} label="Pages of activity" />
            </>
          )}
        </Loading>
      )}
    </Stack>
  );
}
