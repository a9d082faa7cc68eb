import { Anchor, Group, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { RequestLog } from './RequestLog';

/** Every webhook's requests, searchable by webhook name or URL and filtered by state. */
export function RequestsPage() {
  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Title order={1} size="h2">Webhook request log</Title>
        <Anchor component={Link} to="/webhooks">All webhooks</Anchor>
      </Group>
      <RequestLog />
    </Stack>
  );
}
