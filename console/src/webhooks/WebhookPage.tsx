import { Alert, Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { messageOf, ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { DeleteDialog } from '../components/DeleteDialog';
import { draftOf, FIELDS, updateBody, type Draft } from './draft';
import { RequestLog } from './RequestLog';
import { SecretCard } from './SecretCard';
import { WebhookForm } from './WebhookForm';
import { Counts } from './WebhooksPage';

/** One webhook: edit it, rotate its secret, send a test and follow its requests. */
export function WebhookPage() {
  const { id = '' } = useParams();
  // A fresh editor per webhook: nothing typed for one is left in the form of another.
  return <WebhookEditor key={id} id={id} />;
}

function WebhookEditor({ id }: { id: string }) {
  const navigate = useNavigate();
  const loaded = useLoad(async () => (await ok(api.GET('/webhooks/{id}', { params: { path: { id } } }))).content[0], [id]);
  const [draft, setDraft] = useState<Draft>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [logVersion, setLogVersion] = useState(0);
  const [deleting, setDeleting] = useState(false);

  // The form is filled when the webhook is first read and after a save, not at every read: the
  // counts are read again while the log follows requests, and that must not undo what is typed.
  useEffect(() => {
    if (loaded.data && !draft) setDraft(draftOf(loaded.data));
  }, [loaded.data]);

  if (loaded.error) return <Alert color="red" title="Cannot load the webhook">{loaded.error.message}</Alert>;
  const webhook = loaded.data;
  if (!webhook || !draft) return <Loader aria-label="Loading" />;

  async function save() {
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      const body = updateBody(draft!, webhook!);
      if (Object.keys(body).length > 0) await ok(api.PUT('/webhooks/{id}', { params: { path: { id } }, body }));
      notifications.show({ color: 'green', message: `Saved “${draft!.name.trim()}”` });
      // The form again as stored (typed secrets cleared, names trimmed).
      setDraft(draftOf((await ok(api.GET('/webhooks/{id}', { params: { path: { id } } }))).content[0]));
      loaded.reload();
    } catch (err) {
      const { field, message } = placeError(err, FIELDS);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  }

  async function sendTest() {
    setTesting(true);
    try {
      await ok(api.POST('/webhooks/{id}/test', { params: { path: { id } } }));
      notifications.show({ message: 'Test request made: its result appears in the log below' });
      setLogVersion((v) => v + 1);
    } catch (err) {
      notifications.show({ color: 'red', title: 'No test sent', message: messageOf(err) });
    } finally {
      setTesting(false);
    }
  }

  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">Webhook: {webhook.name}</Title>
        <Anchor component={Link} to="/webhooks">All webhooks</Anchor>
      </Group>
      <Counts webhook={webhook} />
      <Card withBorder component="section" aria-labelledby="settings-title">
        <Title order={2} size="h4" id="settings-title" mb="sm">Settings</Title>
        {failure && <Alert color="red" role="alert" title="Not saved" mb="sm">{failure}</Alert>}
        <form onSubmit={(e) => (e.preventDefault(), void save())} noValidate aria-labelledby="settings-title">
          <Stack>
            <WebhookForm draft={draft} onChange={setDraft} errorOf={(f) => errors[f]} stored={webhook} />
            <Group>
              <Button type="submit" loading={saving}>Save</Button>
              <Button variant="light" color="red" onClick={() => setDeleting(true)}>Delete</Button>
            </Group>
          </Stack>
        </form>
      </Card>
      <SecretCard webhook={webhook} onRotated={loaded.reload} />
      <Card withBorder component="section" aria-labelledby="log-title">
        <Group justify="space-between" mb="sm">
          <Title order={2} size="h4" id="log-title">Requests</Title>
          <Button onClick={sendTest} loading={testing}>Send a test</Button>
        </Group>
        <Text size="sm" c="dimmed" mb="sm">A test is a WEBHOOK_TEST request with data {'{webhook_id}'}, signed and retried like any other.</Text>
        <Stack>
          <RequestLog webhookId={id} version={logVersion} onLoaded={loaded.reload} />
        </Stack>
      </Card>
      {deleting && (
        <DeleteDialog
          name={webhook.name}
          consequence="Its requests stay in the log; a pending one fails at its next attempt."
          remove={() => ok(api.DELETE('/webhooks/{id}', { params: { path: { id } } }))}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate('/webhooks', { replace: true })}
        />
      )}
    </Stack>
  );
}
