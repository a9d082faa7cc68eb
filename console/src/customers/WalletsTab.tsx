import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useReducer, useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { AddWalletButton } from './AccountsTab';
import { money } from '../components/format';
import { JournalDialog } from './JournalDialog';
import { TransactionsTable } from './TransactionsTable';
import type { Wallet } from './types';
import { Empty, Loading } from './ui';

/**
 * The contact's wallets with their figures and balances per spend condition, a journal to credit or
 * debit one, and the wallet transactions (void). A journal or a void bumps `version`: every figure
 * on the tab loads again, so what is shown is what the ledger says, never a sum made here.
 */
export function WalletsTab({ contactId }: { contactId: string }) {
  const [version, bump] = useReducer((v: number) => v + 1, 0);
  const [journalFor, setJournalFor] = useState<Wallet>();
  const wallets = useLoad(() => ok(api.GET('/contacts/{id}/wallets', { params: { path: { id: contactId } } })), [contactId, version]);
  return (
    <Stack>
      <Loading loaded={wallets} what="the wallets">
        {(list) => (list.length === 0 ? <NoWallet contactId={contactId} onAdded={bump} /> : (
          <Stack>
            {list.map((w) => <WalletCard key={w.id} wallet={w} version={version} onJournal={() => setJournalFor(w)} />)}
          </Stack>
        ))}
      </Loading>
      <Title order={2} size="h4">Wallet transactions</Title>
      <TransactionsTable contactId={contactId} wallets={wallets.data ?? []} version={version} onVoided={bump} />
      {journalFor && <JournalDialog wallet={journalFor} onClose={() => setJournalFor(undefined)} onPosted={() => (setJournalFor(undefined), bump())} />}
    </Stack>
  );
}

function NoWallet({ contactId, onAdded }: { contactId: string; onAdded: () => void }) {
  const primary = useLoad(() => ok(api.GET('/contacts/{id}/accounts', { params: { path: { id: contactId }, query: { primary_only: true } } })), [contactId]);
  const account = primary.data?.accounts[0];
  return (
    <Stack gap="xs" align="flex-start">
      <Empty>No wallet yet.{primary.data && !account ? ' The contact has no account to hold one.' : ''}</Empty>
      {account && account.life_cycle_state !== 'TERMINATED' && <AddWalletButton account={account} onAdded={onAdded} />}
    </Stack>
  );
}

function WalletCard({ wallet: w, version, onJournal }: { wallet: Wallet; version: number; onJournal: () => void }) {
  const balances = useLoad(
    () => ok(api.GET('/wallets/{id}/balances', { params: { path: { id: w.id }, query: { include_expiration: true, size: 100 } } })),
    [w.id, version],
  );
  const m = (v: number | null) => money(v, w.currency_code);
  const alt = (v: number | null) => (w.alternative_currency_code && v !== null ? ` (${money(v, w.alternative_currency_code)})` : '');
  const usable = w.life_cycle_state !== 'CANCELLED';
  return (
    <Card withBorder padding="md" data-testid="wallet" aria-label={`Wallet ${w.number}`} component="section">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <div>
          <Text fw={600}>Wallet {w.number}</Text>
          <Text size="xs" c="dimmed">{w.currency_code}</Text>
        </div>
        <Badge variant="light" color={w.life_cycle_state === 'EFFECTIVE' ? 'green' : 'gray'}>{w.life_cycle_state}</Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl">
        <div>
          <Text size="xl" fw={700} data-testid="wallet-balance" aria-label="Balance">{m(w.balance)}{alt(w.alternative_balance)}</Text>
          <Table withRowBorders={false} verticalSpacing={2} mt="xs" aria-label={`Figures of wallet ${w.number}`}>
            <Table.Tbody>
              {([
                ['Spendable now', m(w.commerce_balance)],
                ['Restricted to spend conditions', m(w.conditional_balance) + alt(w.conditional_alternative_balance)],
                ['Unrestricted', m(w.unconditional_balance) + alt(w.unconditional_alternative_balance)],
                ['Not yet valid', m(w.open_balance)],
                ['On hold', m(w.amount_on_hold)],
              ] as const).map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th scope="row" fw={400} c="dimmed">{label}</Table.Th>
                  <Table.Td ta="right">{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
        <div>
          <Text size="sm" fw={600} id={`by-condition-${w.id}`}>By spend condition ({w.currency_code}), and when it expires</Text>
          <Loading loaded={balances} what="the balances">
            {(items) => items.length === 0 ? <Empty>Nothing left to spend.</Empty> : (
              <Table.ScrollContainer minWidth={420}>
                <Table verticalSpacing={2} aria-labelledby={`by-condition-${w.id}`}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Spend condition</Table.Th>
                      <Table.Th scope="col" ta="right">Amount</Table.Th>
                      <Table.Th scope="col" ta="right">In 30 days</Table.Th>
                      <Table.Th scope="col" ta="right">30-60 days</Table.Th>
                      <Table.Th scope="col" ta="right">60-90 days</Table.Th>
                      <Table.Th scope="col" ta="right">Later or never</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {items.map((b) => (
                      <Table.Tr key={b.id ?? 'unrestricted'} data-testid="spend-balance">
                        <Table.Td>{b.id === null ? 'Unrestricted' : b.name}</Table.Td>
                        <Table.Td ta="right">{money(b.amount)}</Table.Td>
                        <Table.Td ta="right">{money(b.expiration?.zero_to_thirty)}</Table.Td>
                        <Table.Td ta="right">{money(b.expiration?.thirty_to_sixty)}</Table.Td>
                        <Table.Td ta="right">{money(b.expiration?.sixty_to_ninety)}</Table.Td>
                        <Table.Td ta="right">{money(b.expiration?.ninety_plus)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Loading>
        </div>
      </SimpleGrid>
      <Group mt="md">
        <Button onClick={onJournal} disabled={!usable} aria-label={`Credit or debit wallet ${w.number}`}>Credit or debit</Button>
      </Group>
    </Card>
  );
}
