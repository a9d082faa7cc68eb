import { Alert, Anchor, Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { languageName } from '../customers/languages';
import { ContactPicker, type PickedContact } from './ContactPicker';
import { STATE_COLOURS, type Message, type Template } from './types';

const FIELDS = ['contact_id', 'recipient', 'language'];

/**
 * The template as one contact gets it, rendered by the API. The API has no operation that renders
 * without sending, so the preview is a real e-mail (POST /communications with the template): to
 * an address the user chooses (their own by default), filled with the chosen contact's values, and
 * recorded in that contact's communications. The console fills no placeholder itself.
 */
export function TemplatePreview({ template, unsaved }: { template: Template; unsaved: boolean }) {
  const [contact, setContact] = useState<PickedContact | null>(null);
  const [language, setLanguage] = useState<string | null>(null);
  const [recipient, setRecipient] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<Message>();

  // The user's own address, where a preview normally goes.
  useEffect(() => {
    ok(api.GET('/users/me')).then(
      (me) => me.credential_type === 'USER' && me.email && setRecipient((r) => r || me.email!),
      () => undefined,
    );
  }, []);

  // Follow the preview's delivery until it leaves PENDING.
  useEffect(() => {
    if (sent?.life_cycle_state !== 'PENDING') return;
    const timer = setTimeout(() => void ok(api.GET('/communications/{id}', { params: { path: { id: sent.id } } })).then(setSent, () => undefined), 1000);
    return () => clearTimeout(timer);
  }, [sent]);

  async function send() {
    setErrors({});
    setFailure(undefined);
    if (!contact) return setErrors({ contact_id: 'Choose the contact whose values fill the template' });
    setSending(true);
    try {
      const { id } = await ok(
        api.POST('/communications', {
          body: {
            name: `Preview of “${template.name}”`,
            contact_id: contact.id,
            channel: 'EMAIL',
            template_id: template.id,
            recipient: recipient.trim() || null,
            ...(language ? { language } : {}),
          },
        }),
      );
      setSent(await ok(api.GET('/communications/{id}', { params: { path: { id } } })));
    } catch (err) {
      const { field, message } = placeError(err, FIELDS);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setSending(false);
    }
  }

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        The API renders a template only when it sends it: the preview is an e-mail of the saved template, filled with the chosen contact's values, sent to the
        address below and kept in that contact's communications.
      </Text>
      {unsaved && <Alert color="yellow">Save your changes first: the preview uses the saved template.</Alert>}
      {failure && <Alert color="red" role="alert" title="No preview">{failure}</Alert>}
      <form onSubmit={(e) => (e.preventDefault(), void send())} noValidate aria-label="Preview for a contact">
        <Group align="flex-start" wrap="wrap">
          <ContactPicker label="Contact" required value={contact} onChange={setContact} error={errors.contact_id} w={300} />
          <Select
            label="Language"
            data={template.contents.map((c) => ({ value: c.language, label: languageName(c.language) ?? c.language }))}
            value={language}
            onChange={setLanguage}
            clearable
            placeholder="The contact's own"
            error={errors.language}
            w={200}
          />
          <TextInput label="Send to" required type="email" value={recipient} onChange={(e) => setRecipient(e.currentTarget.value)} error={errors.recipient} w={280} />
        </Group>
        <Button type="submit" mt="sm" loading={sending} disabled={unsaved}>Send the preview</Button>
      </form>
      {sent && (
        <Stack gap={4} data-testid="template-preview">
          <Group gap="xs">
            <Badge variant="light" color={STATE_COLOURS[sent.life_cycle_state]}>{sent.life_cycle_state}</Badge>
            <Text size="sm">to {sent.recipient} in {languageName(sent.language) ?? sent.language}</Text>
            <Anchor component={Link} to={`/communications/messages/${sent.id}`} size="sm">Open the message</Anchor>
          </Group>
          {sent.failure_reason && <Text size="sm" c="red">{sent.failure_reason}</Text>}
          <Text fw={600} data-testid="preview-subject">{sent.subject}</Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="preview-content">{sent.content}</Text>
        </Stack>
      )}
    </Stack>
  );
}
