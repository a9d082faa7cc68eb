import { Alert, Badge, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { day, money, when } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { Wallet, WalletTransaction } from './types';

const PAGE = 20;
const CLASSIFICATIONS = ['CREDIT', 'DEBIT', 'TRANSFER', 'VOID', 'EXPIRY', 'TOPUP', 'AWARD', 'SPEND', 'RETURN'] as const;
type Classification = (typeof CLASSIFICATIONS)[number];
/** Only journals and top-ups can be voided (docs/money.md); purchase transactions go with their purchase. */
const VOIDABLE = new Set(['CREDIT', 'DEBIT', 'TOPUP']);

/** GET /contacts/{id}/wallet_transactions, newest first, with a void (after a confirmation) for journals and top-ups. */
export function TransactionsTable({ contactId, wallets, version, onVoided }: { contactId: string; wallets: Wallet[]; version: number; onVoided: () => void }) {
  const [page, setPage] = useState(1);
  const [classification, setClassification] = useState<Classification | null>(null);
  const [state, setState] = useState<'POSTED' | 'VOID' | null>(null);
  const [voiding, setVoiding] = useState<WalletTransaction>();
  const list = useLoad(
    () =>
      ok(api.GET('/contacts/{id}/wallet_transactions', {
        params: { path: { id: contactId }, query: { page, size: PAGE, sort: 'created_on', order: 'DESC', ...(classification ? { classification } : {}), ...(state ? { life_cycle_state: state } : {}) } },
      })),
    [contactId, page, classification, state, version],
  );
  const walletNumber = (id: string | null) => wallets.find((w) => w.id === id)?.number ?? (id ? 'another wallet' : 'account');
  return (
    <Stack>
      <Group>
        <Select
          label="Classification"
          data={CLASSIFICATIONS.map((c) => ({ value: c, label: c }))}
          value={classification}
          onChange={(v) => (setClassification(v as Classification | null), setPage(1))}
          clearable
          placeholder="Any"
          w={180}
        />
        <Select
          label="State"
          data={['POSTED', 'VOID']}
          value={state}
          onChange={(v) => (setState(v as 'POSTED' | 'VOID' | null), setPage(1))}
          clearable
          placeholder="Any"
          w={150}
        />
      </Group>
      <PagedList
        list={list} what="the transactions" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage} compact
        empty="No transaction."
        aria-label="Wallet transactions" striped scroll={{ minWidth: 820 }} rowTestId="transaction-row" rowKey={(t) => t.id}
        columns={[
          { header: 'Number', cell: (t) => t.number },
          { header: 'Date', cell: (t) => when(t.transaction_date) },
          { header: 'Classification', cell: (t) => t.classification },
          { header: 'State', cell: (t) => <Badge variant="light" color={t.life_cycle_state === 'VOID' ? 'gray' : 'green'}>{t.life_cycle_state}</Badge> },
          { header: 'Amount', align: 'right', cell: (t) => money(t.amount, t.currency_code) },
          { header: 'Wallet', cell: (t) => walletNumber(t.wallet_id) },
          { header: 'Expires', cell: (t) => day(t.expiration_date) },
          {
            header: 'Void',
            cell: (t) =>
              t.life_cycle_state === 'POSTED' && VOIDABLE.has(t.classification) && (
                <Button size="xs" variant="light" color="red" onClick={() => setVoiding(t)} aria-label={`Void transaction ${t.number}`}>Void</Button>
              ),
          },
        ]}
      />
      {voiding && <VoidDialog contactId={contactId} transaction={voiding} onClose={() => setVoiding(undefined)} onVoided={() => (setVoiding(undefined), onVoided())} />}
    </Stack>
  );
}

/** Asks before voiding: a void cannot be undone (a second one is refused), it is a compensating transaction. */
function VoidDialog({ contactId, transaction: t, onClose, onVoided }: { contactId: string; transaction: WalletTransaction; onClose: () => void; onVoided: () => void }) {
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    setFailure(undefined);
    try {
      await ok(api.POST('/contacts/{id}/wallet_transactions/{transaction_id}', { params: { path: { id: contactId, transaction_id: t.id } }, body: {} }));
      notifications.show({ color: 'green', message: `Transaction ${t.number} voided` });
      onVoided();
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title={`Void transaction ${t.number}?`}>
      <Stack>
        {failure && <Alert color="red" role="alert" title="Not voided">{failure}</Alert>}
        <Text size="sm">
          This {t.classification.toLowerCase()} of {money(t.amount, t.currency_code)} will be undone by a compensating transaction and marked VOID.
          A void cannot itself be undone.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>Keep it</Button>
          <Button color="red" onClick={confirm} loading={busy}>Void transaction</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
