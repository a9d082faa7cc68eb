import { Badge, Button, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState, type ReactNode } from 'react';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import { day, money, utcDay } from '../components/format';
import { languageName } from './languages';
import type { ConsentState, Contact } from './types';
import { Facts } from './ui';

const CONSENTS: { value: ConsentState; label: string }[] = [
  { value: 'ACCEPTED', label: 'Accepted' },
  { value: 'REJECTED', label: 'Rejected' },
  { value: 'WITHDRAWN', label: 'Withdrawn' },
];
const yesNo = (v: boolean) => (v ? 'Yes' : 'No');
/** Shown even when empty: what a back-office user looks for first. The other facts only when set. */
const ALWAYS = new Set(['First name', 'Last name', 'Company name', 'Code', 'E-mail', 'Phone', 'Address', 'Preferred language', 'Registered on']);
const shown = ([label, value]: [string, ReactNode]) => ALWAYS.has(label) || (value !== null && value !== undefined && value !== '');

/** What GET /contacts/{id} says, and the consent state (PUT /contacts/{id}/consents). */
export function ProfileTab({ contact: c, onChanged }: { contact: Contact; onChanged: () => void }) {
  const addresses = c.addresses.map((a) => (
    <Text key={a.id} size="sm">
      {[a.address_line_1, a.address_line_2, a.town_city, a.postal_code, a.state_province_county, a.country].filter(Boolean).join(', ') || '—'}
      {a.is_primary && c.addresses.length > 1 ? ' (primary)' : ''}
    </Text>
  ));
  const phones = c.phones.map((p) => (
    <Text key={p.id} size="sm">{p.number}{p.phone_type ? ` (${p.phone_type.toLowerCase()})` : ''}{p.is_primary && c.phones.length > 1 ? ', primary' : ''}</Text>
  ));
  const emails = c.emails.map((e) => (
    <Text key={e.id} size="sm">{e.email_address}{e.is_primary && c.emails.length > 1 ? ' (primary)' : ''}</Text>
  ));
  const person = c.contact_type === 'PERSON';
  return (
    <Stack>
      <Facts
        label="Profile"
        rows={([
          ...(person
            ? ([['Title', c.title], ['First name', c.first_name], ['Middle name', c.middle_name], ['Last name', c.last_name]] as [string, string | null][])
            : ([['Company name', c.company_name]] as [string, string | null][])),
          ['Code', c.code],
          ['E-mail', emails.length ? emails : null],
          ['Phone', phones.length ? phones : null],
          ['Address', addresses.length ? addresses : null],
          ['Preferred language', languageName(c.preferred_language_code)],
          ['Registered on', day(c.registered_on)],
          ['Category', c.category?.name],
          ['Spend in the last 12 months', money(c.total_spend)],
          ['Interaction', c.interaction_status === 'DORMANT' ? 'Dormant (no activity for 12 months)' : 'Resting'],
          ['Loyalty identifier', c.loyalty_identifier],
          ['Referral code', c.referral_code],
          ['Statutory number', c.statutory_number],
          ['KYC', c.kyc_status ? `${c.kyc_status}${c.kyc_profile ? ` (${c.kyc_profile.name})` : ''}` : null],
          ['Notes', c.notes],
          ...c.custom_fields.map((f) => [f.key, typeof f.value === 'number' ? utcDay(f.value) : f.value] as [string, string | null]),
        ] as [string, ReactNode][]).filter(shown)}
      />
      <Title order={2} size="h4">Consent</Title>
      <Facts
        label="Marketing preferences"
        rows={[
          ['Marketing e-mails', c.email_opt_out ? 'Opted out' : 'Allowed'],
          ['Marketing SMS', c.sms_opt_out ? 'Opted out' : 'Allowed'],
          ['Affiliate marketing', yesNo(c.affiliate_marketing)],
        ]}
      />
      <ConsentForm contact={c} onChanged={onChanged} />
    </Stack>
  );
}

function ConsentForm({ contact: c, onChanged }: { contact: Contact; onChanged: () => void }) {
  const [value, setValue] = useState<string>(c.consent_state ?? '');
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  async function save() {
    setSaving(true);
    setError(undefined);
    try {
      await ok(api.PUT('/contacts/{id}/consents', { params: { path: { id: c.id } }, body: { consent_state: value as ConsentState } }));
      notifications.show({ color: 'green', message: `Consent ${value.toLowerCase()}` });
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  }
  return (
    <Group align="flex-end">
      <Radio.Group
        label="Consent state"
        description={c.consent_state ? undefined : 'Not recorded yet'}
        value={value}
        onChange={setValue}
        error={error}
      >
        <Group mt={4}>
          {CONSENTS.map((o) => (
            <Radio key={o.value} value={o.value} label={o.label} disabled={c.is_anonymized} />
          ))}
        </Group>
      </Radio.Group>
      <Button onClick={save} loading={saving} disabled={!value || value === c.consent_state || c.is_anonymized}>Save consent</Button>
      {c.consent_state && <Badge variant="light" color={c.consent_state === 'ACCEPTED' ? 'green' : 'orange'} data-testid="consent-state">{c.consent_state}</Badge>}
    </Group>
  );
}
