import { Anchor, Card, Group, Stack, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { RequestDetail } from './RequestDetail';
import { RequestLog } from './RequestLog';

/**
 * Every webhook's requests, searchable by webhook name or URL and filtered by state. `?request=<id>`
 * (an automation run's link) shows that request's attempts first.
 */
export function RequestsPage() {
  const [params] = useSearchParams();
  const request = params.get('request');
  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <Title order={1} size="h2">Webhook request log</Title>
        <Anchor component={Link} to="/webhooks">All webhooks</Anchor>
      </Group>
      {request && (
        <Card withBorder component="section" aria-labelledby="request-title">
          <Title order={2} size="h4" id="request-title" mb="xs">The request</Title>
          <RequestDetail id={request} version={0} />
        </Card>
      )}
      <RequestLog />
    </Stack>
  );
}
