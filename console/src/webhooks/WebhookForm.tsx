import { Group, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import type { Draft } from './draft';
import { METHODS, URL_AUTHS, type Webhook } from './types';

interface Props {
  draft: Draft;
  onChange: (d: Draft) => void;
  errorOf: (field: string) => string | undefined;
  /** The stored webhook when editing: its method is fixed, and its secrets are kept unless typed again. */
  stored?: Webhook;
}

/** Name, target, method and the receiver's credentials; the signing secret's end date. */
export function WebhookForm({ draft, onChange, errorOf, stored }: Props) {
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => onChange({ ...draft, [key]: value });
  const authChanged = stored !== undefined && stored.url_auth !== draft.url_auth;
  const urlChanged = stored !== undefined && stored.url_endpoint !== draft.url_endpoint.trim();
  // What the secret fields say: stored and kept, or needed again (a kept secret never follows a new URL).
  const keptHint = (has: boolean | undefined) =>
    !stored || authChanged || !has ? undefined : urlChanged ? 'Give it again: a stored secret is not sent to a new URL' : 'Stored; leave empty to keep it';
  return (
    <Stack>
      <TextInput label="Name" required value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} error={errorOf('name')} />
      <Group grow align="flex-start" wrap="wrap">
        <Select
          label="Method"
          required
          data={METHODS}
          value={draft.method}
          onChange={(v) => v && set('method', v as Draft['method'])}
          disabled={stored !== undefined}
          description={stored ? 'Fixed once the webhook exists' : undefined}
          error={errorOf('method')}
          allowDeselect={false}
          maw={200}
        />
        <TextInput
          label="URL"
          required
          type="url"
          placeholder="https://crm.example.com/hooks"
          description="https to a public address (the operator may allow others, and plain http to them)"
          value={draft.url_endpoint}
          onChange={(e) => set('url_endpoint', e.currentTarget.value)}
          error={errorOf('url_endpoint')}
          miw={280}
        />
      </Group>
      <Select
        label="Authentication at the receiver"
        data={URL_AUTHS}
        value={draft.url_auth}
        onChange={(v) => v && set('url_auth', v as Draft['url_auth'])}
        error={errorOf('url_auth')}
        allowDeselect={false}
        maw={360}
      />
      {draft.url_auth === 'USERNAME_PASSWORD' && (
        <Group grow align="flex-start">
          <TextInput label="Username" required autoComplete="off" value={draft.username} onChange={(e) => set('username', e.currentTarget.value)} error={errorOf('username')} />
          <PasswordInput
            label="Password"
            required={!stored?.has_password || authChanged || urlChanged}
            autoComplete="new-password"
            description={keptHint(stored?.has_password)}
            value={draft.password}
            onChange={(e) => set('password', e.currentTarget.value)}
            error={errorOf('password')}
          />
        </Group>
      )}
      {draft.url_auth === 'API_KEY' && (
        <PasswordInput
          label="API key"
          required={!stored?.has_api_key || authChanged || urlChanged}
          autoComplete="off"
          description={keptHint(stored?.has_api_key) ?? 'Sent as the api_key header'}
          value={draft.api_key}
          onChange={(e) => set('api_key', e.currentTarget.value)}
          error={errorOf('api_key')}
        />
      )}
      <TextInput
        label="Signing secret valid until"
        type="datetime-local"
        description="Your time zone. Empty: no end. After it nothing is sent until the secret is rotated."
        value={draft.secret_key_active_until}
        onChange={(e) => set('secret_key_active_until', e.currentTarget.value)}
        error={errorOf('secret_key_active_until')}
        maw={360}
      />
    </Stack>
  );
}
