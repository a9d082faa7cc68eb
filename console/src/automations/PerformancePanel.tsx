import { Group, Input, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { MetricChart } from '../analytics/MetricChart';
import { Loading } from '../components/Loading';
import { endOfDay, startOfDay } from '../components/zone';
import { API_ZONE, everyBucket, lastDays, loadPerformance, OUTCOMES, totals, type Performance, type RunCounts } from './simulations';

type Granularity = 'DAY' | 'HOUR';
const STEP: Record<Granularity, number> = { DAY: 86_400, HOUR: 3_600 };
/** A bucket the API left out: no run of any outcome. */
const NO_RUNS = Object.fromEntries(OUTCOMES.map((o) => [o.state, 0])) as RunCounts;

/**
 * How the live automation did (GET /automations/{id}/performance): its runs by outcome per day
 * (or hour) over a window of UTC days, the last 30 by default, and the time from an event to its
 * effect (median and 95th percentile of the bucket). The totals are sums of the API's buckets.
 */
export function PerformancePanel({ automationId }: { automationId: string }) {
  const [range, setRange] = useState(() => lastDays(30));
  const [granularity, setGranularity] = useState<Granularity>('DAY');
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const perf = useLoad(() => loadPerformance(automationId, range.from, range.to, granularity), [automationId, range.from, range.to, granularity]);
  const placed = perf.error ? placeError(perf.error, ['from_date', 'to_date', 'granularity']) : undefined;
  const errorAt = (f: string) => (placed?.field === f ? placed.message : undefined);

  return (
    <Stack>
      <Group align="flex-start">
        <TextInput type="date" label="From" description="UTC days, as the API counts them" value={range.from} onChange={(e) => setRange({ ...range, from: e.currentTarget.value })} error={errorAt('from_date')} />
        <TextInput type="date" label="Until" description="Included" value={range.to} onChange={(e) => setRange({ ...range, to: e.currentTarget.value })} error={errorAt('to_date')} />
        <Input.Wrapper label="Per" error={errorAt('granularity')}>
          <SegmentedControl aria-label="Per" data={[{ value: 'DAY', label: 'Day' }, { value: 'HOUR', label: 'Hour' }]} value={granularity} onChange={(v) => setGranularity(v as Granularity)} />
        </Input.Wrapper>
        <Input.Wrapper label="Show as">
          <SegmentedControl aria-label="Show as" data={[{ value: 'chart', label: 'Charts' }, { value: 'table', label: 'Tables' }]} value={view} onChange={(v) => setView(v as 'chart' | 'table')} />
        </Input.Wrapper>
      </Group>
      {placed?.field ? null : (
        <Loading loaded={perf} what="the performance">
          {(p) => <Charts perf={p} from={startOfDay(range.from, API_ZONE) ?? 0} to={endOfDay(range.to, API_ZONE) ?? 0} granularity={granularity} view={view} />}
        </Loading>
      )}
    </Stack>
  );
}

function Charts({ perf, from, to, granularity, view }: { perf: Performance; from: number; to: number; granularity: Granularity; view: 'chart' | 'table' }) {
  const sum = totals(perf);
  const buckets = everyBucket(perf.buckets, from, to, STEP[granularity], (timestamp) => ({
    timestamp, runs: NO_RUNS, actions: [], event_to_effect: { p50: null, p95: null },
  }));
  const latency = (p: 'p50' | 'p95') => buckets.map((b) => ({ timestamp: b.timestamp, number: b.event_to_effect[p] }));
  return (
    <Stack>
      <Text data-testid="performance-totals">
        <b data-testid="performance-total-all">{sum.all}</b> runs:{' '}
        {OUTCOMES.map((o, i) => (
          <span key={o.state}>{i > 0 && ', '}<span data-testid={`performance-total-${o.state}`}>{sum[o.state]}</span> {o.label.toLowerCase()}</span>
        ))}
        .
      </Text>
      <MetricChart
        metric={{ key: 'performance-runs', label: 'Runs', description: "Runs by outcome, by their event's time (a run still going counts by what it did so far)" }}
        granularity={granularity} zone={API_ZONE} view={view} bars="stacked"
        series={OUTCOMES.map((o) => ({ id: o.state, name: o.label, colour: o.colour, points: buckets.map((b) => ({ timestamp: b.timestamp, number: b.runs[o.state] })) }))}
      />
      <MetricChart
        metric={{ key: 'performance-latency', label: 'Time to effect', description: 'Seconds from the event to each completed action: the median (p50) and the 95th percentile (p95); — where none completed', decimals: true }}
        granularity={granularity} zone={API_ZONE} view={view} unit="seconds" bars="grouped"
        series={[
          { id: 'p50', name: 'p50', points: latency('p50') },
          { id: 'p95', name: 'p95', points: latency('p95'), colour: '#e8590c' },
        ]}
      />
    </Stack>
  );
}
