import { Alert, Button, ColorSwatch, Group, Modal, Progress, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { messageOf, ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { DataTable } from '../components/DataTable';
import { day, money } from '../components/format';
import { Loading } from '../components/Loading';
import type { Account, Rewards } from './types';
import { Empty, Facts } from './ui';

/** Reward tier and schemes live on the primary account (spec.md: only it holds reward information). */
export function RewardsTab({ contactId }: { contactId: string }) {
  const loaded = useLoad(async () => {
    const primary = (await ok(api.GET('/contacts/{id}/accounts', { params: { path: { id: contactId }, query: { primary_only: true } } }))).accounts[0];
    if (!primary) return { primary: undefined, rewards: undefined };
    return { primary, rewards: await ok(api.GET('/accounts/{id}/rewards', { params: { path: { id: primary.id } } })) };
  }, [contactId]);
  return (
    <Loading loaded={loaded} what="the rewards" compact>
      {({ primary, rewards }) =>
        !primary || !rewards ? <Empty>No primary account: rewards are held by the contact's primary account.</Empty> : <RewardsView account={primary} rewards={rewards} onChanged={loaded.reload} />
      }
    </Loading>
  );
}

function RewardsView({ account, rewards: r, onChanged }: { account: Account; rewards: Rewards; onChanged: () => void }) {
  const [signingOut, setSigningOut] = useState<Rewards['joined_reward_schemes'][number]>();
  const tier = r.reward_tier;
  const spend = r.automatic_spend_settings;
  return (
    <Stack>
      <Title order={2} size="h4">Tier</Title>
      {tier?.name ? (
        <Stack gap={4} maw={480} data-testid="reward-tier">
          <Group gap="xs">
            {tier.color && <ColorSwatch color={tier.color} size={16} aria-hidden />}
            <Text fw={600}>{tier.name}</Text>
          </Group>
          <Text size="sm">Value units this year {money(tier.period_value_units)}; lifetime {money(tier.lifetime_value_units)}</Text>
          <Text size="sm">Progress to the next tier: {tier.next_tier_progression}%</Text>
          {/* Progress hands only aria-label to its progressbar (aria-labelledby stays on the wrapper). */}
          <Progress value={tier.next_tier_progression} aria-label="Progress to the next tier" />
        </Stack>
      ) : <Empty>No tier reached yet.</Empty>}
      <Facts
        label="Reward settings"
        rows={[
          ['Account', `${account.number}${r.name ? ` (${r.name})` : ''}`],
          ['Signed up on', r.signed_up_on ? `${day(r.signed_up_on)}${r.sign_up_organisation ? ` at ${r.sign_up_organisation.name}` : ''}` : null],
          ['Spending blocked', r.spending_blocked_status ? `Yes, since ${day(r.spending_blocked_date)}` : 'No'],
          ['Automatic spend', spend.enable_automatic_spend ? `On: ${spend.automatic_spend_preference === 'NEXT_MERCHANT_PURCHASE' ? 'next purchase at a merchant' : 'every merchant purchase'}` : 'Off'],
          ['Keeps in the wallet at least', spend.minimum_wallet_balance === null ? null : money(spend.minimum_wallet_balance, r.currency_code)],
          ['From a purchase of', spend.from_purchase_amount === null ? null : money(spend.from_purchase_amount, r.currency_code)],
          ['Merchants', spend.allowed_merchants.length ? spend.allowed_merchants.map((m) => m.name).join(', ') : null],
          ['Preferred payment method', r.preferred_payment_method ? `${r.preferred_payment_method.type} ${r.preferred_payment_method.last4 ? `…${r.preferred_payment_method.last4}` : (r.preferred_payment_method.iban ?? '')}` : null],
        ]}
      />
      <Title order={2} size="h4">Reward schemes</Title>
      <DataTable
        rows={r.joined_reward_schemes} compact
        empty="Not signed up to any scheme."
        aria-label="Joined reward schemes" striped scroll={{ minWidth: 560 }} rowTestId="scheme-row" rowKey={(s) => s.id}
        columns={[
          { header: 'Scheme', cell: (s) => s.name },
          { header: 'Signed up on', cell: (s) => day(s.signed_up_on) },
          { header: 'How', cell: (s) => `${s.sign_up_option}${s.email_address ? ` (${s.email_address})` : ''}` },
          { header: 'Sign out', cell: (s) => <Button size="xs" variant="light" color="red" onClick={() => setSigningOut(s)} aria-label={`Sign out of ${s.name}`}>Sign out</Button> },
        ]}
      />
      <SignUpForm accountId={account.id} joined={r.joined_reward_schemes.map((s) => s.id)} onDone={onChanged} />
      {signingOut && <SignOutDialog accountId={account.id} scheme={signingOut} onClose={() => setSigningOut(undefined)} onDone={() => (setSigningOut(undefined), onChanged())} />}
    </Stack>
  );
}

const SIGN_UP_FIELDS = ['reward_scheme_id', 'email_address', 'sign_up_code'];

/** POST /accounts/{id}/reward_schemes: a scheme, with the e-mail or code it asks for. */
function SignUpForm({ accountId, joined, onDone }: { accountId: string; joined: string[]; onDone: () => void }) {
  const schemes = useLoad(() => ok(api.GET('/reward_schemes', { params: { query: { size: 100, sort: 'name', order: 'ASC' } } })), []);
  const [schemeId, setSchemeId] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const open = (schemes.data?.content ?? []).filter((s) => !joined.includes(s.id));
  const scheme = open.find((s) => s.id === schemeId);
  if (schemes.error || open.length === 0) return null;

  async function signUp(e: FormEvent) {
    e.preventDefault();
    if (!schemeId) return setErrors({ reward_scheme_id: 'Choose a scheme' });
    setBusy(true);
    setErrors({});
    try {
      const body = { reward_scheme_id: schemeId, ...(email.trim() ? { email_address: email.trim() } : {}), ...(code.trim() ? { sign_up_code: code.trim() } : {}) };
      await ok(api.POST('/accounts/{id}/reward_schemes', { params: { path: { id: accountId } }, body }));
      notifications.show({ color: 'green', message: `Signed up to ${scheme?.name ?? 'the scheme'}` });
      setSchemeId(null);
      onDone();
    } catch (err) {
      const placed = placeError(err, (a) => (SIGN_UP_FIELDS.includes(a) ? a : undefined));
      setErrors({ [placed.field ?? 'reward_scheme_id']: placed.message });
    } finally {
      setBusy(false);
    }
  }
  return (
    <form onSubmit={signUp} aria-label="Sign up to a scheme">
      <Group align="flex-start">
        <Select label="Sign up to" placeholder="Choose a scheme" data={open.map((s) => ({ value: s.id, label: s.name }))} value={schemeId} onChange={setSchemeId} error={errors.reward_scheme_id} w={260} searchable />
        {scheme?.sign_up_option === 'EMAIL_DOMAIN' && <TextInput label="E-mail address" description={`At ${scheme.allowed_domains.join(', ')}`} value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={errors.email_address} />}
        {scheme?.sign_up_option === 'CLOSE_LOOP_SIGN_UP' && <TextInput label="Sign-up code" value={code} onChange={(e) => setCode(e.currentTarget.value)} error={errors.sign_up_code} />}
        <Button type="submit" mt={25} loading={busy}>Sign up</Button>
      </Group>
    </form>
  );
}

function SignOutDialog({ accountId, scheme, onClose, onDone }: { accountId: string; scheme: { id: string; name: string }; onClose: () => void; onDone: () => void }) {
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    try {
      await ok(api.DELETE('/accounts/{id}/reward_schemes/{reward_scheme_id}', { params: { path: { id: accountId, reward_scheme_id: scheme.id } } }));
      notifications.show({ color: 'green', message: `Signed out of ${scheme.name}` });
      onDone();
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title={`Sign out of ${scheme.name}?`}>
      <Stack>
        {failure && <Alert color="red" role="alert">{failure}</Alert>}
        <Text size="sm">The account leaves the scheme and stops earning its rewards.</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>Stay signed up</Button>
          <Button color="red" onClick={signOut} loading={busy}>Sign out</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
