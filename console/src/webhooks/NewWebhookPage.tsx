import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { ShownOnce } from '../components/ShownOnce';
import { createBody, emptyDraft, FIELDS, type Draft } from './draft';
import { WebhookForm } from './WebhookForm';

/** Create a webhook; its signing secret is shown once, then the webhook's page opens. */
export function NewWebhookPage() {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  // Kept in this component only while the dialog shows it: never in the URL or history state.
  const [created, setCreated] = useState<{ id: string; secret: string }>();

  async function create() {
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      const { id, secret_key } = await ok(api.POST('/webhooks', { body: createBody(draft) }));
      setCreated({ id, secret: secret_key });
    } catch (err) {
      const { field, message } = placeError(err, FIELDS);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack maw={820}>
      <Title order={1} size="h2">New webhook</Title>
      {failure && <Alert color="red" role="alert" title="Not created">{failure}</Alert>}
      <form onSubmit={(e) => (e.preventDefault(), void create())} noValidate aria-label="New webhook">
        <Stack>
          <WebhookForm draft={draft} onChange={setDraft} errorOf={(f) => errors[f]} />
          <Group>
            <Button type="submit" loading={saving}>Create</Button>
            <Button variant="default" component={Link} to="/webhooks">Back to the list</Button>
          </Group>
        </Stack>
      </form>
      {created && (
        <ShownOnce title={`Webhook “${draft.name.trim()}” created`} label="Signing secret" secret={created.secret} onClose={() => navigate(`/webhooks/${created.id}`, { replace: true })}>
          <Text size="sm">
            Every request carries a Standard Webhooks signature (the <code>webhook-signature</code> header) made with this secret: give it to the
            receiver so it can check that a request comes from this service. Lost it? Rotate it on the webhook's page.
          </Text>
        </ShownOnce>
      )}
    </Stack>
  );
}
