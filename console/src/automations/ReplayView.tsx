import { Accordion, Alert, Badge, Button, Card, Group, Progress, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState } from 'react';
import { messageOf } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { MetricChart } from '../analytics/MetricChart';
import { DataTable } from '../components/DataTable';
import { when } from '../components/format';
import { Loading } from '../components/Loading';
import { entityOf, type Catalogue } from './catalogue';
import { explainReason, stateLabel } from './runs';
import { API_ZONE, cancelReplay, everyBucket, loadReplay, REPLAY_COLOURS, windowOf, type Simulation } from './simulations';
import { VerdictView } from './VerdictView';

/** How often a running replay is read again. */
const POLL_MS = 1000;
const DAY = 86_400;

/**
 * One replay: its progress while it runs (read again every second, with Cancel), then what it
 * found: events and would-run by day, each action's counts with the skip reasons, the samples.
 */
export function ReplayView({ automationId, simulationId, entity, catalogue, onEnded }: {
  automationId: string;
  simulationId: string;
  entity: string;
  catalogue: Catalogue;
  onEnded: () => void;
}) {
  const replay = useLoad(() => loadReplay(automationId, simulationId), [automationId, simulationId]);
  const state = replay.data?.state;
  const wasRunning = useRef(false);
  useEffect(() => {
    if (state === 'RUNNING') {
      wasRunning.current = true;
      const timer = setTimeout(replay.reload, POLL_MS);
      return () => clearTimeout(timer);
    }
    if (state && wasRunning.current) {
      wasRunning.current = false;
      onEnded();
    }
  }, [replay.data]);

  async function cancel() {
    try {
      const { state: now } = await cancelReplay(automationId, simulationId);
      notifications.show({ message: now === 'CANCELLED' ? 'Replay cancelled' : `The replay had already ended: ${stateLabel(now)}` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'Not cancelled', message: messageOf(err) });
    }
    replay.reload();
  }

  return (
    <Card withBorder component="section" aria-label="Replay" data-testid="replay">
      <Loading loaded={replay} what="the replay">
        {(s) => (
          <Stack>
            <Group justify="space-between">
              <Group gap="xs">
                <Title order={3} size="h4">Replay of {windowOf(s)} (UTC)</Title>
                <Badge color={REPLAY_COLOURS[s.state]} data-testid="replay-state">{stateLabel(s.state)}</Badge>
              </Group>
              {s.state === 'RUNNING' && <Button variant="default" color="red" onClick={cancel}>Cancel the replay</Button>}
            </Group>
            <Progressed replay={s} />
            {s.error && <Alert color={s.state === 'FAILED' ? 'red' : 'gray'} title={s.state === 'FAILED' ? 'The replay failed' : 'Stopped'}>{s.error}</Alert>}
            <Found replay={s} entity={entity} catalogue={catalogue} />
          </Stack>
        )}
      </Loading>
    </Card>
  );
}

function Progressed({ replay }: { replay: Simulation }) {
  const { events_done: done, events_total: total } = replay.progress;
  const share = total ? Math.round((done / total) * 100) : replay.state === 'RUNNING' ? 0 : 100;
  return (
    <Stack gap={4}>
      <Progress value={share} animated={replay.state === 'RUNNING'} aria-label="Events judged" />
      <Text size="sm" data-testid="replay-progress">
        {total === null ? 'Counting the events…' : `${done} of ${total} events judged`}
        {replay.completed_on ? ` · ended ${when(replay.completed_on)}` : ` · started ${when(replay.created_on)}`}
      </Text>
    </Stack>
  );
}

/** The summary so far (a running or cancelled replay's is partial): by day, by action, the samples. */
function Found({ replay, entity, catalogue }: { replay: Simulation; entity: string; catalogue: Catalogue }) {
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const { summary } = replay;
  const attributes = entityOf(catalogue, entity)?.attributes ?? [];
  const days = everyBucket(summary.by_day, replay.from_date, replay.to_date, DAY, (timestamp) => ({ timestamp, events: 0, would_run: 0 }));
  const actionName = (code: string) => catalogue.adaptors.flatMap((a) => a.actions).find((x) => x.code === code)?.name ?? code;
  return (
    <Stack>
      <Text data-testid="replay-summary">
        <b data-testid="replay-events">{summary.events}</b> events, for <b data-testid="replay-would-run">{summary.would_run}</b> of them at least one action would run.
      </Text>
      <Group justify="flex-end">
        <SegmentedControl size="xs" aria-label="Show the days as" data={[{ value: 'chart', label: 'Chart' }, { value: 'table', label: 'Table' }]} value={view} onChange={(v) => setView(v as 'chart' | 'table')} />
      </Group>
      <MetricChart
        metric={{ key: 'replay-days', label: 'Events', description: 'Events of the window, and those for which at least one action would run' }}
        granularity="DAY" zone={API_ZONE} view={view} bars="grouped"
        series={[
          { id: 'events', name: 'Events', points: days.map((d) => ({ timestamp: d.timestamp, number: d.events })) },
          { id: 'would_run', name: 'Would run', points: days.map((d) => ({ timestamp: d.timestamp, number: d.would_run })), colour: '#2f9e44' },
        ]}
      />
      <DataTable
        rows={summary.by_action} rowKey={(a) => a.id} rowTestId="replay-action" striped scroll={{ minWidth: 720 }}
        caption={<caption style={{ captionSide: 'top', textAlign: 'left' }}>Per action</caption>}
        columns={[
          { header: '#', w: 40, cell: (a) => a.order },
          { header: 'Action', rowHeader: { fw: 500 }, cell: (a) => actionName(a.adaptor_action) },
          { header: 'Would run', align: 'right', testId: 'replay-action-would-run', cell: (a) => a.would_run },
          { header: 'Skipped', align: 'right', testId: 'replay-action-skipped', cell: (a) => a.skipped },
          { header: 'Would fail', align: 'right', testId: 'replay-action-would-fail', cell: (a) => a.would_fail },
          {
            header: 'Why skipped', testId: 'replay-action-reasons',
            cell: (a) => (a.skip_reasons.length === 0 ? '—' : (
              <Stack gap={2}>
                {a.skip_reasons.map((r) => <Text key={r.reason} size="sm">{r.count} × {explainReason(r.reason, attributes)}</Text>)}
              </Stack>
            )),
          },
        ]}
      />
      <Title order={4} size="h5">Samples: the first {replay.samples.length} events of the window</Title>
      {replay.samples.length === 0 ? <Text c="dimmed" size="sm">None.</Text> : (
        <Accordion variant="separated" data-testid="replay-samples">
          {replay.samples.map((v, i) => (
            <Accordion.Item key={`${v.entity.id}-${i}`} value={String(i)}>
              <Accordion.Control>{i + 1}. {when(v.event.occurred_on)} · {v.entity.type} {v.entity.id} · {v.would_run ? 'would run' : 'would do nothing'}</Accordion.Control>
              <Accordion.Panel><VerdictView verdict={v} catalogue={catalogue} entity={entity} /></Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
