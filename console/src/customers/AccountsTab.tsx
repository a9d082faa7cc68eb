import { Anchor, Badge, Button, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { money } from '../components/format';
import type { Account } from './types';
import { Empty, Loading, Pages } from './ui';

const PAGE = 20;

/** The contact's accounts (GET /contacts/{id}/accounts); a wallet is added to one from here. */
export function AccountsTab({ contactId }: { contactId: string }) {
  const [page, setPage] = useState(1);
  const accounts = useLoad(
    () => ok(api.GET('/contacts/{id}/accounts', { params: { path: { id: contactId }, query: { page, size: PAGE, sort: 'created_on', order: 'ASC' } } })),
    [contactId, page],
  );
  return (
    <Loading loaded={accounts} what="the accounts">
      {(data) => (
        <Stack>
          {data.accounts.length === 0 && <Empty>No account. Wallets and rewards are held by accounts.</Empty>}
          {data.accounts.length > 0 && (
            <Table.ScrollContainer minWidth={820}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Number</Table.Th>
                    <Table.Th scope="col">Name</Table.Th>
                    <Table.Th scope="col">State</Table.Th>
                    <Table.Th scope="col">Currency</Table.Th>
                    <Table.Th scope="col">Balance</Table.Th>
                    <Table.Th scope="col">Credit limit</Table.Th>
                    <Table.Th scope="col">Classification</Table.Th>
                    <Table.Th scope="col">Wallet</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.accounts.map((a) => (
                    <Table.Tr key={a.id} data-testid="account-row">
                      <Table.Td>
                        {a.number} {a.is_primary && <Badge size="xs" variant="light">Primary</Badge>}
                      </Table.Td>
                      <Table.Td>{a.name ?? '—'}</Table.Td>
                      <Table.Td>{a.life_cycle_state}</Table.Td>
                      <Table.Td>{a.currency_code}</Table.Td>
                      <Table.Td>{money(a.balance, a.currency_code)}</Table.Td>
                      <Table.Td>{a.credit_limit === null ? 'None' : money(a.credit_limit, a.currency_code)}</Table.Td>
                      <Table.Td>{a.classification?.name ?? '—'}</Table.Td>
                      <Table.Td><WalletCell account={a} contactId={contactId} onAdded={accounts.reload} /></Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          <Pages total={data.paging.total} size={PAGE} page={page} onChange={setPage} label="Pages of accounts" />
        </Stack>
      )}
    </Loading>
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
