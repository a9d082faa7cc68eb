import { Alert, Button, Card, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import type { Get } from '../api/types';
import { useLoad } from '../api/useLoad';

type Format = Get<'/name_display_settings'>['format'];
const FORMATS: Record<Format, string> = {
  FIRST_LAST: 'Ada Lovelace',
  LAST_FIRST: 'Lovelace Ada',
  LAST_COMMA_FIRST: 'Lovelace, Ada',
  TITLE_FIRST_LAST: 'Countess Ada Lovelace',
  FIRST_MIDDLE_LAST: 'Ada Augusta Lovelace',
  TITLE_FIRST_MIDDLE_LAST: 'Countess Ada Augusta Lovelace',
};

/** How contact names are composed (`contact_name`): GET|PUT /name_display_settings. */
export function NameDisplay() {
  const loaded = useLoad(() => ok(api.GET('/name_display_settings')), []);
  const [format, setFormat] = useState<Format>();
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  useEffect(() => setFormat(loaded.data?.format), [loaded.data]);

  async function save() {
    if (!format) return;
    setSaving(true);
    setError(undefined);
    try {
      await ok(api.PUT('/name_display_settings', { body: { format } }));
      notifications.show({ color: 'green', message: 'Name format saved' });
      loaded.reload();
    } catch (err) {
      setError(placeError(err, ['format']).message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card withBorder component="section" aria-labelledby="names-title">
      <Stack>
        <Title order={2} size="h3" id="names-title">Contact names</Title>
        {loaded.error && <Alert color="red" title="Cannot load the name format">{loaded.error.message}</Alert>}
        {!loaded.data && !loaded.error && <Loader size="sm" aria-label="Loading" />}
        {loaded.data && (
          <Group align="flex-end">
            <Select
              label="Show contact names as"
              data={Object.entries(FORMATS).map(([value, example]) => ({ value, label: `${example} (${value})` }))}
              value={format ?? null}
              onChange={(v) => v && setFormat(v as Format)}
              allowDeselect={false}
              error={error}
              w={380}
            />
            <Button onClick={save} loading={saving} disabled={format === loaded.data.format}>Save</Button>
          </Group>
        )}
        <Text size="xs" c="dimmed">Applies to every contact's full name in the API and the console.</Text>
      </Stack>
    </Card>
  );
}
