import { Alert, Button, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import type { Get } from '../api/types';
import { grantsOf, type Choice } from './scopes';
import { ScopesPicker } from './ScopesPicker';

type Created = Get<'/api_keys'>['content'][number] & { key: string | null };
const FIELDS = ['name', 'type', 'scopes', 'expires_on', 'rate_limit_per_second'];
const TYPES = [
  { value: 'SECRET', label: 'Secret: back-office operations (keep it on a server)' },
  { value: 'PUBLIC', label: 'Public: communications operations only (needs the communications scope)' },
];

/** Name, type, scopes (all, or read and write per group), expiry and rate limit of a new key. */
export function NewApiKeyDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (key: Created) => void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<'SECRET' | 'PUBLIC'>('SECRET');
  const [choice, setChoice] = useState<Choice>({ all: false, read: new Set(), write: new Set() });
  const [expires, setExpires] = useState('');
  const [rate, setRate] = useState<number | ''>('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function create() {
    setErrors({});
    setFailure(undefined);
    const scopes = grantsOf(choice);
    // Left out, the API would give the key every scope: the console asks for a choice instead.
    if (scopes.length === 0) return setErrors({ scopes: 'Choose at least one scope, or all' });
    setBusy(true);
    try {
      const body = {
        name: name.trim(),
        type,
        scopes,
        ...(expires ? { expires_on: Math.floor(new Date(`${expires}T23:59:59`).getTime() / 1000) } : {}),
        ...(rate === '' ? {} : { rate_limit_per_second: rate }),
      };
      onCreated(await ok(api.POST('/api_keys', { body })));
    } catch (err) {
      const { field, message } = placeError(err, FIELDS);
      // "scopes.3": the fourth grant sent; the table shows the whole choice, so the message goes there.
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened onClose={onClose} title="New API key" size="xl">
      <form onSubmit={(e) => (e.preventDefault(), void create())} noValidate aria-label="New API key">
        <Stack>
          {failure && <Alert color="red" role="alert" title="Not created">{failure}</Alert>}
          <TextInput label="Name" required description="Who or what uses it, e.g. “Shop integration”" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} data-autofocus />
          <Select label="Type" data={TYPES} value={type} onChange={(v) => v && setType(v as typeof type)} allowDeselect={false} error={errors.type} />
          <ScopesPicker
            value={choice}
            error={errors.scopes}
            onChange={(next) => {
              setErrors(({ scopes: _, ...rest }) => rest);
              setChoice(next);
            }}
          />
          <Group grow align="flex-start">
            <TextInput label="Expires on" type="date" description="At the end of that day (your time zone). Empty: never." value={expires} onChange={(e) => setExpires(e.currentTarget.value)} error={errors.expires_on} />
            <NumberInput
              label="Requests per second"
              description="Empty: the service's default"
              min={1}
              max={100000}
              allowDecimal={false}
              value={rate}
              onChange={(v) => setRate(typeof v === 'number' ? v : '')}
              error={errors.rate_limit_per_second}
            />
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>Create the key</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
