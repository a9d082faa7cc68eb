import { ActionIcon, Alert, Button, Card, Group, Loader, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState, type ChangeEvent } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { forgetOrganisationZone } from '../components/zone';
import { changesOf, draftOf, fieldsOf, newRule, type Draft, type DraftRule } from './money';
import { NameDisplay } from './NameDisplay';

/** Currencies and time zones the browser knows, by name; the API has the last word on each. */
function currencyChoices(current: string) {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  const codes = new Set([...Intl.supportedValuesOf('currency'), current]);
  return [...codes].sort().map((c) => ({ value: c, label: `${c} — ${names.of(c) ?? c}` }));
}
function zoneChoices(current: string) {
  return [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone'), current])].sort();
}

const amountProps = { inputMode: 'decimal' as const, autoComplete: 'off' };

/** The organisation's money settings (GET|PUT /settings) and how contact names are shown. */
export function OrganisationSettings() {
  const loaded = useLoad(() => ok(api.GET('/settings')), []);
  const [draft, setDraft] = useState<Draft>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (loaded.data) setDraft(draftOf(loaded.data));
  }, [loaded.data]);
  const currencies = useMemo(() => currencyChoices(loaded.data?.system_currency_code ?? 'EUR'), [loaded.data]);
  const zones = useMemo(() => zoneChoices(loaded.data?.time_zone ?? 'UTC'), [loaded.data]);

  if (loaded.error) return <Alert color="red" title="Cannot load the settings">{loaded.error.message}</Alert>;
  if (!loaded.data || !draft) return <Loader aria-label="Loading" />;
  const settings = loaded.data;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const setRule = (i: number, rule: DraftRule) => set('limit_rules', draft.limit_rules.map((r, n) => (n === i ? rule : r)));
  const input = (key: Exclude<keyof Draft, 'limit_rules' | 'system_currency_code' | 'time_zone'>) => ({
    value: draft[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => set(key, e.currentTarget.value),
    error: errors[key],
  });

  async function save() {
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      const body = changesOf(draft!, settings);
      if (Object.keys(body).length === 0) notifications.show({ message: 'Nothing changed' });
      else {
        await ok(api.PUT('/settings', { body }));
        forgetOrganisationZone();
        notifications.show({ color: 'green', message: 'Settings saved' });
        loaded.reload();
      }
    } catch (err) {
      const { field, message } = placeError(err, fieldsOf(draft!));
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack maw={960}>
      <Card withBorder component="section" aria-labelledby="money-title">
        <form onSubmit={(e) => (e.preventDefault(), void save())} noValidate aria-labelledby="money-title">
          <Stack>
            <Group justify="space-between">
              <Title order={2} size="h3" id="money-title">Money and time</Title>
              <Text size="sm" c="dimmed">{settings.updated_on === null ? 'The defaults: never changed' : `Changed ${when(settings.updated_on)}`}</Text>
            </Group>
            {failure && <Alert color="red" role="alert" title="Not saved">{failure}</Alert>}
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Select label="System currency" description="New accounts' currency" data={currencies} searchable allowDeselect={false} value={draft.system_currency_code} onChange={(v) => v && set('system_currency_code', v)} error={errors.system_currency_code} />
              <Select label="Time zone" description="Hours, days and months of analytics" data={zones} searchable allowDeselect={false} value={draft.time_zone} onChange={(v) => v && set('time_zone', v)} error={errors.time_zone} />
              <TextInput label="Alternative currency" description="Points, stamps, miles… or a currency (e.g. PTS); empty: none" {...input('alternative_currency_code')} />
              <TextInput label="Alternative units per system unit" description="e.g. 10 points per EUR; required with an alternative currency" {...amountProps} {...input('alternative_currency_rate')} />
              <TextInput label="Least credit limit" description="Empty: no bound" {...amountProps} {...input('credit_limit_min')} />
              <TextInput label="Greatest credit limit" description="Empty: no bound" {...amountProps} {...input('credit_limit_max')} />
              <TextInput label="Default wallet minimum balance" description="For wallets that set none; negative allows an overdraft" required {...amountProps} {...input('default_wallet_minimum_balance')} />
            </SimpleGrid>
            <LimitRules rules={draft.limit_rules} errors={errors} onChange={(r) => set('limit_rules', r)} onRule={setRule} />
            <Group>
              <Button type="submit" loading={saving}>Save</Button>
              <Button variant="default" onClick={() => (setDraft(draftOf(settings)), setErrors({}), setFailure(undefined))}>Undo changes</Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <NameDisplay />
    </Stack>
  );
}

const PERIODS = [
  { value: 'DAILY', label: 'Daily' },
  { value: 'ANNUAL', label: 'Annual' },
];
const TRANSACTION_TYPES = [
  { value: 'DEBIT', label: 'Debits' },
  { value: 'TRANSFER', label: 'Transfers' },
];

/** The global limit rules: apply to wallets without rules of their own (docs/money.md "Placeds"). */
function LimitRules({ rules, errors, onChange, onRule }: { rules: DraftRule[]; errors: Record<string, string>; onChange: (r: DraftRule[]) => void; onRule: (i: number, r: DraftRule) => void }) {
  return (
    <Stack gap="xs" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
      <Text component="legend" fw={500}>Limit rules for wallets without their own</Text>
      {errors.limit_rules && <Text size="sm" c="red" role="alert">{errors.limit_rules}</Text>}
      {rules.length === 0 && <Text size="sm" c="dimmed">No rule: wallets without their own rules have no limits.</Text>}
      {rules.map((r, i) => {
        const err = (f: string) => errors[`limit_rules.${i}.${f}`];
        const label = `Rule ${i + 1}`;
        return (
          <Group key={r.key} align="flex-start" wrap="wrap" gap="xs" role="group" aria-label={label} data-testid="limit-rule">
            <Select label={`${label}: period`} data={PERIODS} value={r.period} allowDeselect={false} onChange={(v) => v && onRule(i, { ...r, period: v as DraftRule['period'] })} error={err('period')} w={130} />
            <Select label="Transactions" data={TRANSACTION_TYPES} value={r.transaction_type} allowDeselect={false} onChange={(v) => v && onRule(i, { ...r, transaction_type: v as DraftRule['transaction_type'] })} error={err('transaction_type')} w={140} />
            <TextInput label="Least per transaction" {...amountProps} value={r.minimum_amount} onChange={(e) => onRule(i, { ...r, minimum_amount: e.currentTarget.value })} error={err('minimum_amount')} w={180} />
            <TextInput label="Most per period" {...amountProps} value={r.maximum_amount} onChange={(e) => onRule(i, { ...r, maximum_amount: e.currentTarget.value })} error={err('maximum_amount')} w={180} />
            <ActionIcon variant="subtle" color="red" mt={26} aria-label={`Remove rule ${i + 1}`} onClick={() => onChange(rules.filter((_, n) => n !== i))}>×</ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button variant="light" size="xs" onClick={() => onChange([...rules, newRule()])} disabled={rules.length >= 20}>Add a rule</Button>
      </Group>
    </Stack>
  );
}
