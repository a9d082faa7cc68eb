import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { languageName } from '../customers/languages';
import { Facts } from '../customers/ui';
import { HtmlView } from './HtmlView';
import { Section } from './Section';
import { STATE_COLOURS } from './types';

/**
 * One communication (GET /communications/{id}): its delivery, and what was sent as the API
 * answers it: the subject, the plain-text content shown as text, and an e-mail's HTML part drawn
 * in a sandboxed frame (as rendered, before the tracking pixel and links were added).
 */
export function MessagePage() {
  const { id = '' } = useParams();
  const loaded = useLoad(() => ok(api.GET('/communications/{id}', { params: { path: { id } } })), [id]);
  const [archiving, setArchiving] = useState(false);
  const message = loaded.data;
  const pending = message?.life_cycle_state === 'PENDING';
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(loaded.reload, 2000);
    return () => clearInterval(timer);
  }, [pending, loaded.reload]);

  async function archive(is_archived: boolean) {
    setArchiving(true);
    try {
      await ok(api.PUT('/communications/{id}', { params: { path: { id } }, body: { is_archived } }));
      notifications.show({ message: is_archived ? 'Archived' : 'Back from the archive' });
      loaded.reload();
    } catch (err) {
      notifications.show({ color: 'red', title: 'Not changed', message: messageOf(err) });
    } finally {
      setArchiving(false);
    }
  }

  return (
    <Section>
      <Anchor component={Link} to="/communications" size="sm">← All sent messages</Anchor>
      {loaded.error && <Alert color="red" title="Cannot load the communication">{loaded.error.message}</Alert>}
      {!message && !loaded.error && <Loader aria-label="Loading" />}
      {message && (
        <Stack maw={960}>
          <Group justify="space-between">
            <Title order={2} size="h3">{message.name}</Title>
            <Group gap="xs">
              <Badge size="lg" variant="light" color={STATE_COLOURS[message.life_cycle_state]} data-testid="message-state">{message.life_cycle_state}</Badge>
              <Button variant="default" size="xs" loading={archiving} onClick={() => void archive(!message.is_archived)}>
                {message.is_archived ? 'Unarchive' : 'Archive'}
              </Button>
            </Group>
          </Group>
          {message.failure_reason && <Alert color="red" title="Not sent">{message.failure_reason}</Alert>}
          <Facts
            label="Delivery"
            rows={[
              ['Contact', <Anchor key="c" component={Link} to={`/customers/${message.contact.id}`} size="sm">{message.contact.name ?? message.contact.code ?? message.contact.id}</Anchor>],
              ['Channel', message.channel],
              ['From', message.sender],
              ['To', message.recipient],
              ['Language', languageName(message.language) ?? message.language],
              ['Created', when(message.created_on)],
              ['Sent', when(message.sent_on)],
              ['Viewed', message.is_viewed ? when(message.viewed_on) : 'No'],
              ['Clicked', message.clicked_on ? when(message.clicked_on) : 'No'],
              ['Template', message.template_id ? <Anchor key="t" component={Link} to={`/communications/templates/${message.template_id}`} size="sm">Open the template</Anchor> : 'None'],
              ['Archived', message.is_archived ? 'Yes' : 'No'],
            ]}
          />
          <Card withBorder component="section" aria-labelledby="sent-title" data-testid="message-preview">
            <Title order={3} size="h5" id="sent-title" mb="xs">What was sent</Title>
            {message.subject !== null && (
              <Text fw={600} mb="xs" data-testid="message-subject">{message.subject}</Text>
            )}
            {/* The plain text as text: nothing of it is read as HTML. */}
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="message-content">{message.content}</Text>
            {message.rich_content && (
              <Stack gap={4} mt="sm">
                <Text size="xs" c="dimmed">The HTML part, as the contact's mail reader shows it:</Text>
                <HtmlView html={message.rich_content} title="The e-mail's HTML as sent" />
              </Stack>
            )}
          </Card>
        </Stack>
      )}
    </Section>
  );
}
