import { Paper, Stack, Text, Title } from '@mantine/core';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DataTable } from '../components/DataTable';
import { inZone } from '../components/zone';
import { GRANULARITIES, type Granularity, type Item, type MetricDef } from './metrics';
import { exact } from '../components/format';

/** Lines drawn at most: the table lists every item. */
const DRAWN = 8;
const COLOURS = ['#1c7ed6', '#2f9e44', '#e8590c', '#c2255c', '#6741d9', '#0c8599', '#e67700', '#495057'];

const LABELS: Record<Granularity, { tick: Intl.DateTimeFormatOptions; full: Intl.DateTimeFormatOptions }> = {
  HOUR: { tick: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }, full: { dateStyle: 'medium', timeStyle: 'short' } },
  DAY: { tick: { day: 'numeric', month: 'short' }, full: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } },
  MONTH: { tick: { month: 'short', year: '2-digit' }, full: { month: 'long', year: 'numeric' } },
};

/** A bucket's start and each item's number in it (`s0`, `s1`, …): a point of the chart, a row of the table. */
type Bucket = { timestamp: number } & Record<string, number>;

interface Props {
  metric: MetricDef;
  items: Item[];
  granularity: Granularity;
  zone: string;
  view: 'chart' | 'table';
}

/**
 * One metric over the window: a bar per bucket for one organisation, a line per organisation when
 * the units below are included (the first is the total, docs/analytics.md). Titled, with labelled
 * axes; the table view gives the same numbers to screen readers and to anyone who wants digits.
 */
export function MetricChart({ metric, items, granularity, zone, view }: Props) {
  const series = items.map((item) => item[metric.key] ?? []);
  const buckets = series[0] ?? [];
  const rows: Bucket[] = buckets.map((b, i) => ({ timestamp: b.timestamp, ...Object.fromEntries(series.map((s, j) => [`s${j}`, s[i]?.number ?? 0])) }));
  const bucket = (t: number, full = false) => inZone(t, zone, LABELS[granularity][full ? 'full' : 'tick']);
  const word = GRANULARITIES.find((g) => g.value === granularity)!.word;
  const titleId = `metric-${metric.key}-title`;
  const title = `${metric.label} per ${word.toLowerCase()}`;
  const drawn = items.slice(0, DRAWN);
  return (
    <Paper withBorder p="md" component="figure" m={0} aria-labelledby={titleId} data-testid={`metric-${metric.key}`}>
      <Stack gap="xs">
        <div>
          <Title order={3} size="h4" id={titleId}>{title}</Title>
          <Text size="sm" c="dimmed">{metric.description}. {word}s of {zone}.</Text>
        </div>
        {view === 'chart' ? (
          <>
            <div style={{ width: '100%', height: 280 }} data-testid="chart">
              <ResponsiveContainer width="100%" height="100%">
                <ComposedChart data={rows} title={title} desc={`${metric.description}, ${items.map((i) => i.organisationName).join(', ')}`} margin={{ top: 8, right: 16, bottom: 28, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="timestamp" tickFormatter={(t: number) => bucket(t)} minTickGap={24} label={{ value: `${word} (${zone})`, position: 'insideBottom', offset: -18 }} />
                  <YAxis allowDecimals={metric.key === 'products'} tickFormatter={(v: number) => exact(v)} width={56} label={{ value: metric.label, angle: -90, position: 'insideLeft', style: { textAnchor: 'middle' } }} />
                  <Tooltip labelFormatter={(t) => bucket(Number(t), true)} formatter={(v) => exact(v as number)} />
                  {drawn.length > 1 && <Legend verticalAlign="top" height={28} />}
                  {drawn.length === 1 ? (
                    <Bar dataKey="s0" name={drawn[0].organisationName} fill={COLOURS[0]} isAnimationActive={false} />
                  ) : (
                    drawn.map((item, j) => (
                      // The first is the total: drawn wider, so it shows beside a unit whose line it equals.
                      <Line key={item.organisationId} dataKey={`s${j}`} name={item.organisationName} stroke={COLOURS[j % COLOURS.length]} strokeWidth={j === 0 ? 4 : 2} dot={{ r: 2 }} isAnimationActive={false} />
                    ))
                  )}
                </ComposedChart>
              </ResponsiveContainer>
            </div>
            {items.length > DRAWN && <Text size="xs" c="dimmed">The chart draws the first {DRAWN} of {items.length} organisations; the table view lists them all.</Text>}
          </>
        ) : (
          <DataTable
            rows={rows}
            caption={<caption style={{ captionSide: 'top', textAlign: 'left' }}>{title} ({zone})</caption>}
            data-testid="metric-table" striped stickyHeader scroll={{ minWidth: Math.max(400, 160 + items.length * 120), maxHeight: 420 }} rowTestId="metric-row" rowKey={(r) => r.timestamp}
            columns={[
              { header: word, rowHeader: { fw: 400 }, cell: (r) => bucket(r.timestamp, true) },
              ...items.map((item, j) => ({ header: item.organisationName, align: 'right' as const, cell: (r: Bucket) => exact(r[`s${j}`]) })),
            ]}
          />
        )}
      </Stack>
    </Paper>
  );
}
