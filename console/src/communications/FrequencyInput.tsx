import { Alert, Button, Card, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { frequencyProblem, nextTicks, PRESETS } from './schedule';
import { scheduleTime } from '../components/zone';

interface Props {
  value: string;
  onChange: (frequency: string) => void;
  /** The API's refusal of the frequency. */
  error?: string;
  /** Epoch ms of the plan's start and end (null: no end). */
  start: number | undefined;
  end: number | null;
  zone: string;
  /** The zone could not be read (no settings:read): the ticks are shown in UTC. */
  zoneUnknown: boolean;
}

/**
 * The cron expression the API schedules by (UTC), and the next five ticks it gives, on the
 * organisation's clock: what a marketer checks before posting ("Monday 11:00 in Nicosia?").
 */
export function FrequencyInput({ value, onChange, error, start, end, zone, zoneUnknown }: Props) {
  const problem = value.trim() ? frequencyProblem(value) : null;
  const seconds = value.trim().split(/\s+/).length === 6;
  const ticks = !problem && value.trim() && start !== undefined ? nextTicks(value, start, end, Date.now()) : [];
  return (
    <Stack gap="xs">
      <TextInput
        label="Frequency (cron, UTC)"
        required
        description="minute hour day-of-month month day-of-week (UTC), or 6 fields with seconds first; e.g. 0 9 * * 1 is Mondays at 09:00 UTC"
        placeholder="0 9 * * 1"
        styles={{ input: { fontFamily: 'monospace' } }}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        error={error}
        maw={520}
      />
      <Group gap={6}>
        {PRESETS.map((p) => (
          <Button key={p.value} size="compact-xs" variant="light" onClick={() => onChange(p.value)}>{p.label}</Button>
        ))}
      </Group>
      <Card withBorder padding="sm" component="section" aria-labelledby="ticks-title" maw={520}>
        <Title order={4} size="h6" id="ticks-title">Next 5 ticks in {zone}</Title>
        {zoneUnknown && <Text size="xs" c="dimmed">The organisation's time zone cannot be read (settings:read): shown in UTC.</Text>}
        {problem && <Alert color="orange" mt="xs" p="xs" data-testid="frequency-problem">The API will refuse it: {problem}</Alert>}
        {!problem && !value.trim() && <Text size="sm" c="dimmed">Type a frequency.</Text>}
        {!problem && value.trim() && ticks.length === 0 && <Text size="sm" c="dimmed">No tick between the start and the end.</Text>}
        {ticks.length > 0 && (
          <List size="sm" data-testid="next-ticks">
            {ticks.map((t) => (
              <List.Item key={t} data-epoch={t / 1000}>
                {scheduleTime(t, zone, seconds)}
                {zone !== 'UTC' && <Text span size="xs" c="dimmed"> ({new Date(t).toISOString().slice(0, seconds ? 19 : 16).replace('T', ' ')} UTC)</Text>}
              </List.Item>
            ))}
          </List>
        )}
        <Text size="xs" c="dimmed" mt={4}>Counted from when the plan is posted: a tick before that is never sent.</Text>
      </Card>
    </Stack>
  );
}
