import { Alert, Button, Checkbox, Group, Modal, Radio, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { isPositiveAmount, money } from '../components/format';
import type { Wallet } from './types';

type Kind = 'CREDIT' | 'DEBIT';
const FIELDS = ['amount', 'type', 'spend_condition_id', 'description', 'allow_negative_balance'];

/**
 * POST /journals on one wallet. The amount is sent as the text typed (the API takes decimal
 * strings), so nothing is rounded on the way; the balance shown afterwards is the API's.
 */
export function JournalDialog({ wallet, onClose, onPosted }: { wallet: Wallet; onClose: () => void; onPosted: () => void }) {
  const [kind, setKind] = useState<Kind>('CREDIT');
  const [amount, setAmount] = useState('');
  const [condition, setCondition] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [belowZero, setBelowZero] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const conditions = useLoad(() => ok(api.GET('/spend_conditions', { params: { query: { size: 100, sort: 'name', order: 'ASC' } } })), []);

  async function post(e: FormEvent) {
    e.preventDefault();
    setFailure(undefined);
    const typed = amount.trim();
    if (!isPositiveAmount(typed)) return setErrors({ amount: 'Enter an amount above zero, such as 25 or 12.50 (at most 4 decimals)' });
    setErrors({});
    setBusy(true);
    try {
      await ok(
        api.POST('/journals', {
          body: {
            wallet_id: wallet.id,
            type: kind,
            amount: typed,
            ...(condition ? { spend_condition_id: condition } : {}),
            ...(description.trim() ? { description: description.trim() } : {}),
            ...(kind === 'DEBIT' && belowZero ? { allow_negative_balance: true } : {}),
          },
        }),
      );
      notifications.show({ color: 'green', message: `${kind === 'CREDIT' ? 'Credited' : 'Debited'} ${money(typed, wallet.currency_code)}` });
      onPosted();
    } catch (err) {
      const placed = placeError(err, (a) => (FIELDS.includes(a) ? a : a.startsWith('limit_rules') ? 'amount' : undefined));
      if (placed.field) setErrors({ [placed.field]: placed.message });
      else setFailure(placed.message);
    } finally {
      setBusy(false);
    }
  }

  const spendConditions = (conditions.data?.content ?? []).map((c) => ({ value: c.id, label: c.code ? `${c.name} (${c.code})` : c.name }));
  return (
    <Modal opened onClose={onClose} title={`Credit or debit wallet ${wallet.number}`}>
      <form onSubmit={post} noValidate>
        <Stack>
          {failure && <Alert color="red" role="alert" title="Not posted">{failure}</Alert>}
          <Radio.Group label="Type" value={kind} onChange={(v) => setKind(v as Kind)} error={errors.type} required>
            <Group mt={4}>
              <Radio value="CREDIT" label="Credit (add)" />
              <Radio value="DEBIT" label="Debit (take)" />
            </Group>
          </Radio.Group>
          <TextInput
            label={`Amount (${wallet.currency_code})`}
            inputMode="decimal"
            required
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={errors.amount}
            data-autofocus
          />
          <Select
            label="Spend condition"
            description={kind === 'CREDIT' ? 'Restricts the credit to it; none: spendable anywhere' : 'Spends what is restricted to it first'}
            placeholder={conditions.error ? conditions.error.message : spendConditions.length ? 'None' : 'No spend conditions defined'}
            data={spendConditions}
            value={condition}
            onChange={setCondition}
            clearable
            searchable
            error={errors.spend_condition_id}
          />
          <Textarea label="Notes or reference" autosize minRows={2} maxLength={500} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errors.description} />
          {kind === 'DEBIT' && (
            <Checkbox
              label="Allow the balance to go below its minimum"
              checked={belowZero}
              onChange={(e) => setBelowZero(e.currentTarget.checked)}
              error={errors.allow_negative_balance}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>{kind === 'CREDIT' ? 'Credit' : 'Debit'}</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
