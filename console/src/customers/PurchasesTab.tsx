import { Badge, Select, Stack, Table } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { money, when } from '../components/format';
import { Empty, Loading, Pages } from './ui';

const PAGE = 20;

/**
 * GET /purchases of the contact. `performed_on_from=0` asks for every purchase, paged: without a
 * start the API answers only the last 10 (docs/loyalty.md "Listing").
 */
export function PurchasesTab({ contactId }: { contactId: string }) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<'POSTED' | 'CANCELLED' | null>(null);
  const list = useLoad(
    () => ok(api.GET('/purchases', { params: { query: { contact_id: contactId, performed_on_from: '0', page, size: PAGE, sort: 'performed_on', order: 'DESC', ...(state ? { life_cycle_state: state } : {}) } } })),
    [contactId, page, state],
  );
  return (
    <Stack>
      <Select label="State" data={['POSTED', 'CANCELLED']} value={state} onChange={(v) => (setState(v as typeof state), setPage(1))} clearable placeholder="Any" w={160} />
      <Loading loaded={list} what="the purchases">
        {(data) => (
          <>
            {data.purchases.length === 0 ? <Empty>No purchase.</Empty> : (
              <Table.ScrollContainer minWidth={820}>
                <Table striped aria-label="Purchases">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Number</Table.Th>
                      <Table.Th scope="col">Reference</Table.Th>
                      <Table.Th scope="col">Performed on</Table.Th>
                      <Table.Th scope="col">At</Table.Th>
                      <Table.Th scope="col">Classification</Table.Th>
                      <Table.Th scope="col">State</Table.Th>
                      <Table.Th scope="col" ta="right">Total</Table.Th>
                      <Table.Th scope="col" ta="right">Returned</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.purchases.map((p) => (
                      <Table.Tr key={p.id} data-testid="purchase-row">
                        <Table.Td>{p.number}</Table.Td>
                        <Table.Td>{p.reference_number}</Table.Td>
                        <Table.Td>{when(p.performed_on)}</Table.Td>
                        <Table.Td>{p.performed_by_unit_name ?? '—'}</Table.Td>
                        <Table.Td>{p.classfication_name ?? '—'}</Table.Td>
                        <Table.Td><Badge variant="light" color={p.life_cycle_state === 'POSTED' ? 'green' : 'gray'}>{p.life_cycle_state}</Badge></Table.Td>
                        <Table.Td ta="right">{money(p.total_amount, p.currency_code)}</Table.Td>
                        <Table.Td ta="right">{p.returned_amount === 0 ? '—' : money(p.returned_amount, p.currency_code)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Pages total={data.paging.total} size={PAGE} page={page} onChange={setPage} label="Pages of purchases" />
          </>
        )}
      </Loading>
    </Stack>
  );
}
