import { Badge, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { day, money } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { Voucher } from './types';

const PAGE = 20;
const STATES = ['ACTIVATED', 'USED', 'EXPIRED', 'CANCELLED'];
const COLOURS: Record<string, string> = { ACTIVATED: 'green', USED: 'blue', EXPIRED: 'gray', CANCELLED: 'gray' };

/** A fixed value, or the range a variable voucher takes. */
const valueOf = (v: Voucher) =>
  v.value !== null ? money(v.value, v.currency_code) : `${money(v.minimum_value)} to ${money(v.maximum_value, v.currency_code)}`;

/** GET /vouchers of the contact (never the secret number: the API does not keep it). */
export function VouchersTab({ contactId }: { contactId: string }) {
  const [page, setPage] = useState(1);
  const [state, setState] = useState<Voucher['life_cycle_state'] | null>(null);
  const list = useLoad(
    () => ok(api.GET('/vouchers', { params: { query: { contact_id: contactId, page, size: PAGE, sort: 'created_on', order: 'DESC', ...(state ? { life_cycle_state: state } : {}) } } })),
    [contactId, page, state],
  );
  return (
    <Stack>
      <Select label="State" data={STATES} value={state} onChange={(v) => (setState(v as Voucher['life_cycle_state'] | null), setPage(1))} clearable placeholder="Any" w={160} />
      <PagedList
        list={list} what="the vouchers" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage} compact
        empty="No voucher."
        aria-label="Vouchers" striped scroll={{ minWidth: 860 }} rowTestId="voucher-row" rowKey={(v) => v.id}
        columns={[
          { header: 'Number', cell: (v) => v.number },
          { header: 'Type', cell: (v) => v.voucher_type.name },
          { header: 'Classification', cell: (v) => v.classification },
          { header: 'State', cell: (v) => <Badge variant="light" color={COLOURS[v.life_cycle_state] ?? 'gray'}>{v.life_cycle_state}</Badge> },
          { header: 'Value', align: 'right', cell: (v) => `${valueOf(v)}${v.extra_added_value !== null ? ` + ${money(v.extra_added_value)}` : ''}` },
          { header: 'Expires', cell: (v) => day(v.expiration_date) },
          { header: 'Used', cell: (v) => (v.used_on ? `${day(v.used_on)}: ${money(v.used_value, v.currency_code)}` : '—') },
        ]}
      />
    </Stack>
  );
}
