import { Alert, Button, Card, Code, Group, Modal, Select, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { when } from '../components/format';
import { ShownOnce } from '../components/ShownOnce';
import type { Webhook } from './types';

const HOUR = 3600;
/** How long the old secret keeps signing beside the new one (the API allows up to 30 days). */
const OVERLAPS = [
  { value: String(HOUR), label: '1 hour' },
  { value: String(24 * HOUR), label: '24 hours' },
  { value: String(7 * 24 * HOUR), label: '7 days' },
  { value: String(30 * 24 * HOUR - 60), label: '30 days' },
];

/**
 * The signing secret is shown once, when made (created or rotated). The API still answers it on
 * GET /webhooks/{id} to those who may write the webhook; the console shows only its first
 * characters, to recognise it.
 */
export function SecretCard({ webhook, onRotated }: { webhook: Webhook; onRotated: () => void }) {
  const [rotating, setRotating] = useState(false);
  const [overlap, setOverlap] = useState(String(24 * HOUR));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [secret, setSecret] = useState<string>();
  const now = Date.now() / 1000;
  const expired = webhook.secret_key_active_until !== null && webhook.secret_key_active_until <= now;
  const previousActive = webhook.previous_secret_key_active_until !== null && webhook.previous_secret_key_active_until > now;

  async function rotate() {
    setBusy(true);
    setError(undefined);
    try {
      const body = { previous_secret_active_until: Math.floor(Date.now() / 1000) + Number(overlap) };
      const rotated = await ok(api.POST('/webhooks/{id}/rotate_secret', { params: { path: { id: webhook.id } }, body }));
      setRotating(false);
      setSecret(rotated.secret_key);
    } catch (err) {
      setError(placeError(err, ['previous_secret_active_until']).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card withBorder component="section" aria-labelledby="secret-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="secret-title">Signing secret</Title>
        <Text size="sm">
          {webhook.secret_key === undefined ? 'The current secret' : <>Current secret <Code>{webhook.secret_key.slice(0, 10)}…</Code></>}{' '}
          {webhook.secret_key_active_until === null ? 'signs with no end.' : `${expired ? 'stopped signing' : 'signs until'} ${when(webhook.secret_key_active_until)}.`}
        </Text>
        {expired && <Alert color="red">No secret signs: nothing is sent until you rotate the secret or clear its end date.</Alert>}
        {previousActive && <Text size="sm" c="dimmed">The previous secret also signs until {when(webhook.previous_secret_key_active_until!)}.</Text>}
        <Group>
          <Button variant="light" onClick={() => setRotating(true)}>Rotate the secret</Button>
        </Group>
      </Stack>
      <Modal opened={rotating} onClose={() => setRotating(false)} title="Rotate the signing secret">
        <Stack>
          <Text size="sm">A new secret signs from now on. The old one keeps signing beside it for a while, so receivers can switch without missing a request.</Text>
          {error && <Alert color="red" role="alert">{error}</Alert>}
          <Select label="Keep the old secret signing for" data={OVERLAPS} value={overlap} onChange={(v) => v && setOverlap(v)} allowDeselect={false} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRotating(false)}>Cancel</Button>
            <Button onClick={rotate} loading={busy}>Rotate</Button>
          </Group>
        </Stack>
      </Modal>
      {secret && (
        <ShownOnce
          title="New signing secret"
          label="Signing secret"
          secret={secret}
          onClose={() => {
            setSecret(undefined);
            onRotated();
          }}
        />
      )}
    </Card>
  );
}
