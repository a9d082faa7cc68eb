import { Badge, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { money, when } from '../components/format';
import { PagedList } from '../components/PagedList';

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
      <PagedList
        list={list} what="the purchases" rows={(d) => d.purchases} size={PAGE} page={page} onPage={setPage} compact
        empty="No purchase."
        aria-label="Purchases" striped scroll={{ minWidth: 820 }} rowTestId="purchase-row" rowKey={(p) => p.id}
        columns={[
          { header: 'Number', cell: (p) => p.number },
          { header: 'Reference', cell: (p) => p.reference_number },
          { header: 'Performed on', cell: (p) => when(p.performed_on) },
          { header: 'At', cell: (p) => p.performed_by_unit_name ?? '—' },
          { header: 'Classification', cell: (p) => p.classfication_name ?? '—' },
          { header: 'State', cell: (p) => <Badge variant="light" color={p.life_cycle_state === 'POSTED' ? 'green' : 'gray'}>{p.life_cycle_state}</Badge> },
          { header: 'Total', align: 'right', cell: (p) => money(p.total_amount, p.currency_code) },
          { header: 'Returned', align: 'right', cell: (p) => (p.returned_amount === 0 ? '—' : money(p.returned_amount, p.currency_code)) },
        ]}
      />
    </Stack>
  );
}
