import { Paper, Stack, Text, Title } from '@mantine/core';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { DataTable } from '../components/DataTable';
import { inZone } from '../components/zone';
import { GRANULARITIES, type Granularity } from './metrics';
import { exact } from '../components/format';

/** Lines drawn at most: the table lists every series. */
const DRAWN = 8;
const COLOURS = ['#1c7ed6', '#2f9e44', '#e8590c', '#c2255c', '#6741d9', '#0c8599', '#e67700', '#495057'];

const LABELS: Record<Granularity, { tick: Intl.DateTimeFormatOptions; full: Intl.DateTimeFormatOptions }> = {
  HOUR: { tick: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' }, full: { dateStyle: 'medium', timeStyle: 'short' } },
  DAY: { tick: { day: 'numeric', month: 'short' }, full: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } },
  MONTH: { tick: { month: 'short', year: '2-digit' }, full: { month: 'long', year: 'numeric' } },
};

/** What is charted: its test id's key, its title's words, the sentence under the title. */
export interface ChartDef {
  key: string;
  label: string;
  description: string;
  /** Quantities with decimals (products); counts are whole. */
  decimals?: boolean;
}

/** A bucket's number; null where the API has none (a median of no effect), drawn as a gap and shown as —. */
export interface Point {
  timestamp: number;
  number: number | null;
}

/** One line (or one part of a stacked bar): an organisation, an outcome, a percentile. Every series has the same buckets. */
export interface Series {
  id: string;
  name: string;
  points: Point[];
  colour?: string;
}

/** A bucket's start and each series' number in it (`s0`, `s1`, …): a point of the chart, a row of the table. */
type Bucket = { timestamp: number } & Record<string, number | null>;

interface Props {
  metric: ChartDef;
  series: Series[];
  granularity: Granularity;
  zone: string;
  view: 'chart' | 'table';
  /**
   * Bars instead of lines for several series: `grouped`, side by side (figures of sparse buckets,
   * which a line could not join); `stacked`, the parts of a whole (runs by outcome).
   */
  bars?: 'grouped' | 'stacked';
  /** What the numbers are, after the metric's label on the axis ("seconds"). */
  unit?: string;
}

/**
 * One measure over a window: a bar per bucket for one series, a line per series otherwise (the
 * first is the lead one, a total: drawn wider), or bars side by side or stacked (`bars`). Titled,
 * with labelled axes; the table view gives the same numbers to screen readers and to anyone who
 * wants digits.
 */
export function MetricChart({ metric, series, granularity, zone, view, bars, unit }: Props) {
  const buckets = series[0]?.points ?? [];
  const rows: Bucket[] = buckets.map((b, i) => ({ timestamp: b.timestamp, ...Object.fromEntries(series.map((s, j) => [`s${j}`, s.points[i]?.number ?? null])) }));
  const bucket = (t: number, full = false) => inZone(t, zone, LABELS[granularity][full ? 'full' : 'tick']);
  const word = GRANULARITIES.find((g) => g.value === granularity)!.word;
  const titleId = `metric-${metric.key}-title`;
  const title = `${metric.label} per ${word.toLowerCase()}`;
  const drawn = series.slice(0, DRAWN);
  const colour = (s: Series, j: number) => s.colour ?? COLOURS[j % COLOURS.length];
  const shown = (v: number | null) => (v === null ? '—' : exact(v));
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
                <ComposedChart data={rows} title={title} desc={`${metric.description}, ${series.map((s) => s.name).join(', ')}`} margin={{ top: 8, right: 16, bottom: 28, left: 8 }}>
                  <CartesianGrid strokeDasharray="3 3" vertical={false} />
                  <XAxis dataKey="timestamp" tickFormatter={(t: number) => bucket(t)} minTickGap={24} label={{ value: `${word} (${zone})`, position: 'insideBottom', offset: -18 }} />
                  <YAxis allowDecimals={!!metric.decimals} tickFormatter={(v: number) => exact(v)} width={56} label={{ value: unit ? `${metric.label} (${unit})` : metric.label, angle: -90, position: 'insideLeft', style: { textAnchor: 'middle' } }} />
                  <Tooltip labelFormatter={(t) => bucket(Number(t), true)} formatter={(v) => shown(v as number | null)} />
                  {drawn.length > 1 && <Legend verticalAlign="top" height={28} />}
                  {bars || drawn.length === 1 ? (
                    drawn.map((s, j) => <Bar key={s.id} dataKey={`s${j}`} name={s.name} fill={colour(s, j)} stackId={bars === 'stacked' ? 'parts' : undefined} isAnimationActive={false} />)
                  ) : (
                    drawn.map((s, j) => (
                      // The first is the lead series (a total): drawn wider, so it shows beside one whose line it equals.
                      <Line key={s.id} dataKey={`s${j}`} name={s.name} stroke={colour(s, j)} strokeWidth={j === 0 ? 4 : 2} dot={{ r: 2 }} isAnimationActive={false} />
                    ))
                  )}
                </ComposedChart>
              </ResponsiveContainer>
            </div>
            {series.length > DRAWN && <Text size="xs" c="dimmed">The chart draws the first {DRAWN} of {series.length} series; the table view lists them all.</Text>}
          </>
        ) : (
          <DataTable
            rows={rows}
            caption={<caption style={{ captionSide: 'top', textAlign: 'left' }}>{title} ({zone})</caption>}
            data-testid="metric-table" striped stickyHeader scroll={{ minWidth: Math.max(400, 160 + series.length * 120), maxHeight: 420 }} rowTestId="metric-row" rowKey={(r) => r.timestamp}
            columns={[
              { header: word, rowHeader: { fw: 400 }, cell: (r) => bucket(r.timestamp, true) },
              ...series.map((s, j) => ({ header: s.name, align: 'right' as const, cell: (r: Bucket) => shown(r[`s${j}`]) })),
            ]}
          />
        )}
      </Stack>
    </Paper>
  );
}
