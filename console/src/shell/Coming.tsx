import { Stack, Text, Title } from '@mantine/core';

/** A page of the console that later increments build (issue 24). */
export function Coming({ title }: { title: string }) {
  return (
    <Stack>
      <Title order={1} size="h2">{title}</Title>
      <Text c="dimmed">Coming in a later version of the console. The REST API already offers it (see the API reference).</Text>
    </Stack>
  );
}
