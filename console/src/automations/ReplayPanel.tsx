import { Alert, Anchor, Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { Catalogue } from './catalogue';
import { ReplayView } from './ReplayView';
import { stateLabel } from './runs';
import { lastDays, loadReplays, REPLAY_COLOURS, startReplay, windowOf } from './simulations';

const PAGE = 10;

/**
 * "Replay": the automation, as saved now, judged over a window of past events (HISTORY mode, a
 * workflow in Temporal), performing nothing; the replays of this automation, newest first, one of
 * them opened below (`shown`, kept in the page's address).
 */
export function ReplayPanel({ automationId, entity, catalogue, shown, onShow }: {
  automationId: string;
  entity: string;
  catalogue: Catalogue;
  shown: string | undefined;
  onShow: (simulationId: string) => void;
}) {
  const [range, setRange] = useState(() => lastDays(7));
  const [error, setError] = useState<{ field?: string; message: string }>();
  const [starting, setStarting] = useState(false);
  const [page, setPage] = useState(1);
  // The list is read again when the shown replay ends, so its row says how it ended.
  const [ended, setEnded] = useState(0);
  const replays = useLoad(() => loadReplays(automationId, page, PAGE), [automationId, page, shown, ended]);

  async function start() {
    setStarting(true);
    setError(undefined);
    try {
      onShow(await startReplay(automationId, range.from, range.to));
    } catch (err) {
      setError(placeError(err, ['from_date', 'to_date']));
    } finally {
      setStarting(false);
    }
  }

  const errorAt = (f: string) => (error?.field === f ? error.message : undefined);
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        The actions as saved, judged for every event of the window as if the automation had been active (the contacts as they are now). Nothing is sent or written but the replay's own summary.
      </Text>
      <Group align="flex-start">
        <TextInput type="date" label="From" description="UTC days, as the API counts them" value={range.from} onChange={(e) => setRange({ ...range, from: e.currentTarget.value })} error={errorAt('from_date')} />
        <TextInput type="date" label="Until" description="Included" value={range.to} onChange={(e) => setRange({ ...range, to: e.currentTarget.value })} error={errorAt('to_date')} />
        <Button mt={24} onClick={start} loading={starting} disabled={!range.from || !range.to}>Start the replay</Button>
      </Group>
      {error && !error.field && <Alert color="red" role="alert" title="Not started">{error.message}</Alert>}
      {shown && <ReplayView key={shown} automationId={automationId} simulationId={shown} entity={entity} catalogue={catalogue} onEnded={() => setEnded((n) => n + 1)} />}
      <Title order={3} size="h4">Replays of this automation</Title>
      <PagedList
        list={replays} what="the replays" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty="No replay yet." striped highlightOnHover scroll={{ minWidth: 640 }} rowTestId="replay-row" rowKey={(s) => s.id}
        onRowClick={(s) => onShow(s.id)}
        columns={[
          { header: 'Started', cell: (s) => <Anchor component="button" type="button" size="sm" onClick={(e) => (e.stopPropagation(), onShow(s.id))} fw={s.id === shown ? 700 : undefined}>{when(s.created_on)}</Anchor> },
          { header: 'Window (UTC)', cell: windowOf },
          { header: 'State', cell: (s) => <Badge variant="light" color={REPLAY_COLOURS[s.state]}>{stateLabel(s.state)}</Badge> },
          { header: 'Events', align: 'right', cell: (s) => s.summary.events },
          { header: 'Would run', align: 'right', cell: (s) => s.summary.would_run },
        ]}
      />
    </Stack>
  );
}
