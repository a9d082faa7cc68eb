import { Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useReducer, useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { AddWalletButton } from './AccountsTab';
import { DataTable } from '../components/DataTable';
import { money } from '../components/format';
import { Loading } from '../components/Loading';
import { JournalDialog } from './JournalDialog';
import { TransactionsTable } from './TransactionsTable';
import type { Wallet } from './types';
import { Empty } from './ui';

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
      <Loading loaded={wallets} what="the wallets" compact>
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
          <DataTable
            rows={[
              ['Spendable now', m(w.commerce_balance)],
              ['Restricted to spend conditions', m(w.conditional_balance) + alt(w.conditional_alternative_balance)],
              ['Unrestricted', m(w.unconditional_balance) + alt(w.unconditional_alternative_balance)],
              ['Not yet valid', m(w.open_balance)],
              ['On hold', m(w.amount_on_hold)],
            ]}
            aria-label={`Figures of wallet ${w.number}`} withRowBorders={false} verticalSpacing={2} mt="xs" rowKey={([label]) => label}
            columns={[{ rowHeader: { fw: 400, c: 'dimmed' }, cell: ([label]) => label }, { align: 'right', cell: ([, value]) => value }]}
          />
        </div>
        <div>
          <Text size="sm" fw={600} id={`by-condition-${w.id}`}>By spend condition ({w.currency_code}), and when it expires</Text>
          <Loading loaded={balances} what="the balances" compact>
            {(items) => (
              <DataTable
                rows={items} compact
                empty="Nothing left to spend."
                aria-labelledby={`by-condition-${w.id}`} verticalSpacing={2} scroll={{ minWidth: 420 }} rowTestId="spend-balance" rowKey={(b) => b.id ?? 'unrestricted'}
                columns={[
                  { header: 'Spend condition', cell: (b) => (b.id === null ? 'Unrestricted' : b.name) },
                  { header: 'Amount', align: 'right', cell: (b) => money(b.amount) },
                  { header: 'In 30 days', align: 'right', cell: (b) => money(b.expiration?.zero_to_thirty) },
                  { header: '30-60 days', align: 'right', cell: (b) => money(b.expiration?.thirty_to_sixty) },
                  { header: '60-90 days', align: 'right', cell: (b) => money(b.expiration?.sixty_to_ninety) },
                  { header: 'Later or never', align: 'right', cell: (b) => money(b.expiration?.ninety_plus) },
                ]}
              />
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
