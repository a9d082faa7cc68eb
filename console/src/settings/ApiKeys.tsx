import { Alert, Badge, Button, Code, Group, Modal, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import type { Get } from '../api/types';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList } from '../components/PagedList';
import { NewApiKeyDialog } from './NewApiKeyDialog';
import { ShownOnce } from '../components/ShownOnce';

type ApiKey = Get<'/api_keys'>['content'][number];
const PAGE = 25;

function stateOf(k: ApiKey): { label: string; color: string } {
  if (k.revoked_on !== null) return { label: `Revoked ${when(k.revoked_on)}`, color: 'gray' };
  if (k.expires_on !== null && k.expires_on * 1000 <= Date.now()) return { label: 'Expired', color: 'gray' };
  return { label: 'Active', color: 'green' };
}

/** The organisation's API keys (admins only, as the API says): create one with scopes, see it once, revoke. */
export function ApiKeys() {
  const [page, setPage] = useState(1);
  const keys = useLoad(() => ok(api.GET('/api_keys', { params: { query: { page, size: PAGE } } })), [page]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string; scopes: string[] }>();
  const [revoking, setRevoking] = useState<ApiKey>();

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">API keys</Title>
        <Button onClick={() => setCreating(true)}>New API key</Button>
      </Group>
      <Text size="sm" c="dimmed">
        Integrations call the API with a key in the <Code>api_key</Code> header. Only a hash is stored: the key is shown once, when it is made.
      </Text>
      <PagedList
        list={keys} what="the API keys" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty="No API key yet."
        aria-label="API keys" striped scroll={{ minWidth: 820 }} rowTestId="api-key-row" rowKey={(k) => k.id}
        columns={[
          { header: 'Name', cell: (k) => k.name },
          { header: 'Type', cell: (k) => k.type },
          { header: 'Starts with', cell: (k) => <Code>{k.prefix}…</Code> },
          { header: 'Scopes', cell: (k) => <Scopes apiKey={k} /> },
          { header: 'Created', cell: (k) => when(k.created_on) },
          { header: 'Expires', cell: (k) => (k.expires_on === null ? 'Never' : when(k.expires_on)) },
          {
            header: 'State',
            cell: (k) => {
              const state = stateOf(k);
              return <Badge color={state.color} variant="light" tt="none" data-testid="api-key-state">{state.label}</Badge>;
            },
          },
          {
            header: <VisuallyHidden>Actions</VisuallyHidden>,
            cell: (k) => k.revoked_on === null && <Button size="xs" variant="light" color="red" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>Revoke</Button>,
          },
        ]}
      />
      {creating && (
        <NewApiKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(k) => {
            setCreating(false);
            if (k.key) setCreated({ name: k.name, key: k.key, scopes: k.scopes });
            keys.reload();
          }}
        />
      )}
      {created && (
        <ShownOnce title={`API key “${created.name}” created`} label="API key" secret={created.key} onClose={() => setCreated(undefined)}>
          <Text size="sm">Scopes: {created.scopes.join(', ')}. Send it in the <Code>api_key</Code> header of every request.</Text>
        </ShownOnce>
      )}
      {revoking && <RevokeDialog apiKey={revoking} onClose={() => setRevoking(undefined)} onRevoked={() => (setRevoking(undefined), keys.reload())} />}
    </Stack>
  );
}

function Scopes({ apiKey: k }: { apiKey: ApiKey }) {
  // A public key's reach is fixed by its type, not by scopes (API-CONVENTIONS "Authentication").
  if (k.scopes.length === 0) return <Text size="sm" c="dimmed">{k.type === 'PUBLIC' ? 'Communications (public key)' : 'None'}</Text>;
  return <Group gap={4}>{k.scopes.map((s) => <Badge key={s} variant="outline" size="sm" tt="none">{s}</Badge>)}</Group>;
}

function RevokeDialog({ apiKey, onClose, onRevoked }: { apiKey: ApiKey; onClose: () => void; onRevoked: () => void }) {
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function revoke() {
    setBusy(true);
    try {
      await ok(api.DELETE('/api_keys/{id}', { params: { path: { id: apiKey.id } } }));
      notifications.show({ message: `Revoked “${apiKey.name}”` });
      onRevoked();
    } catch (err) {
      setFailure(messageOf(err));
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title={`Revoke “${apiKey.name}”?`}>
      <Stack>
        {failure && <Alert color="red" role="alert">{failure}</Alert>}
        <Text size="sm">
          Every request with the key <Code>{apiKey.prefix}…</Code> is refused from now on (on other replicas of the service within a few seconds). This cannot be undone: an integration that
          still needs access needs a new key.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>Cancel</Button>
          <Button color="red" onClick={revoke} loading={busy}>Revoke</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
