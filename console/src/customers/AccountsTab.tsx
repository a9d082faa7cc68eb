import { Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { money } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { Account } from './types';

const PAGE = 20;

/** The contact's accounts (GET /contacts/{id}/accounts); a wallet is added to one from here. */
export function AccountsTab({ contactId }: { contactId: string }) {
  const [page, setPage] = useState(1);
  const accounts = useLoad(
    () => ok(api.GET('/contacts/{id}/accounts', { params: { path: { id: contactId }, query: { page, size: PAGE, sort: 'created_on', order: 'ASC' } } })),
    [contactId, page],
  );
  return (
    <Stack>
      <PagedList
        list={accounts} what="the accounts" rows={(d) => d.accounts} size={PAGE} page={page} onPage={setPage} compact
        empty="No account. Wallets and rewards are held by accounts."
        striped scroll={{ minWidth: 820 }} rowTestId="account-row" rowKey={(a) => a.id}
        columns={[
          { header: 'Number', cell: (a) => <>{a.number} {a.is_primary && <Badge size="xs" variant="light">Primary</Badge>}</> },
          { header: 'Name', cell: (a) => a.name ?? '—' },
          { header: 'State', cell: (a) => a.life_cycle_state },
          { header: 'Currency', cell: (a) => a.currency_code },
          { header: 'Balance', cell: (a) => money(a.balance, a.currency_code) },
          { header: 'Credit limit', cell: (a) => (a.credit_limit === null ? 'None' : money(a.credit_limit, a.currency_code)) },
          { header: 'Classification', cell: (a) => a.classification?.name ?? '—' },
          { header: 'Wallet', cell: (a) => <WalletCell account={a} contactId={contactId} onAdded={accounts.reload} /> },
        ]}
      />
    </Stack>
  );
}

function WalletCell({ account: a, contactId, onAdded }: { account: Account; contactId: string; onAdded: () => void }) {
  if (a.wallet) {
    return (
      <Anchor component={Link} to={`/customers/${contactId}?tab=wallets`} size="sm">
        {a.wallet.code}: {money(a.wallet.balance, a.wallet.currency_code)}
      </Anchor>
    );
  }
  if (a.life_cycle_state === 'TERMINATED') return <Text size="sm" c="dimmed">None</Text>;
  return <AddWalletButton account={a} onAdded={onAdded} />;
}

/** POST /accounts/{id}/wallets with the organisation's defaults (minimum balance, limit rules). */
export function AddWalletButton({ account, onAdded }: { account: Pick<Account, 'id' | 'number'>; onAdded: () => void }) {
  const [busy, setBusy] = useState(false);
  async function add() {
    setBusy(true);
    try {
      await ok(api.POST('/accounts/{id}/wallets', { params: { path: { id: account.id } }, body: {} }));
      notifications.show({ color: 'green', message: `Wallet added to account ${account.number}` });
      onAdded();
    } catch (err) {
      notifications.show({ color: 'red', title: 'No wallet added', message: messageOf(err) });
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button size="xs" variant="light" onClick={add} loading={busy}>
      Add a wallet to {account.number}
    </Button>
  );
}
