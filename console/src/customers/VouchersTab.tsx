import { Badge, Select, Stack, Table } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { day, money } from '../components/format';
import type { Voucher } from './types';
import { Empty, Loading, Pages } from './ui';

const PAGE = 20;
const STATES = ['ACTIVATED', 'USED', 'EXPIRED', 'CANCELLED'];
const COLOURS: Record<string, string> = { ACTIVATED: 'green', USED: 'blue', EXPIRED: 'gray', CANCELLED: 'gray' };

/** A fixed value, or the range a variable voucher takes. */
const valueOf = (v: Voucher) =>
  v.value !== null ? money(v.value, v.currency_code) : `${money(v.minimum_value)} to ${money(v.maximum_value, v.currency_code)}`;

/** GET /vouchers of the contact (never the secret number: the API does not keep it). */
export function VouchersTab({ contactId }: { contactId: string }) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<string | null>(null);
  const list = useLoad(
    () => ok(api.GET('/vouchers', { params: { query: { contact_id: contactId, page, size: PAGE, sort: 'created_on', order: 'DESC', ...(state ? { life_cycle_state: state } : {}) } } })),
    [contactId, page, state],
  );
  return (
    <Stack>
      <Select label="State" data={STATES} value={state} onChange={(v) => (setState(v), setPage(1))} clearable placeholder="Any" w={160} />
      <Loading loaded={list} what="the vouchers">
        {(data) => (
          <>
            {data.content.length === 0 ? <Empty>No voucher.</Empty> : (
              <Table.ScrollContainer minWidth={860}>
                <Table striped aria-label="Vouchers">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Number</Table.Th>
                      <Table.Th scope="col">Type</Table.Th>
                      <Table.Th scope="col">Classification</Table.Th>
                      <Table.Th scope="col">State</Table.Th>
                      <Table.Th scope="col" ta="right">Value</Table.Th>
                      <Table.Th scope="col">Expires</Table.Th>
                      <Table.Th scope="col">Used</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.content.map((v) => (
                      <Table.Tr key={v.id} data-testid="voucher-row">
                        <Table.Td>{v.number}</Table.Td>
                        <Table.Td>{v.voucher_type.name}</Table.Td>
                        <Table.Td>{v.classification}</Table.Td>
                        <Table.Td><Badge variant="light" color={COLOURS[v.life_cycle_state] ?? 'gray'}>{v.life_cycle_state}</Badge></Table.Td>
                        <Table.Td ta="right">{valueOf(v)}{v.extra_added_value !== null ? ` + ${money(v.extra_added_value)}` : ''}</Table.Td>
                        <Table.Td>{day(v.expiration_date)}</Table.Td>
                        <Table.Td>{v.used_on ? `${day(v.used_on)}: ${money(v.used_value, v.currency_code)}` : '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Pages total={data.paging.total} size={PAGE} page={page} onChange={setPage} label="Pages of vouchers" />
          </>
        )}
      </Loading>
    </Stack>
  );
}
