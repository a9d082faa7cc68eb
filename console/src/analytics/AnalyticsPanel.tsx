import { Alert, Checkbox, Group, Input, Loader, SegmentedControl, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { loadAll } from '../api/lists';
import { useLoad } from '../api/useLoad';
import { useSession } from '../auth/useSession';
import { dayInZone, useOrganisationZone } from '../components/zone';
import { choiceOf, GRANULARITIES, METRICS, queryOf, type Choice, type Granularity, type MetricKey } from './metrics';
import { MetricChart } from './MetricChart';

/** The API's query parameters that the form has a field for (a 400 naming one is shown there). */
const FIELDS = ['from', 'to', 'granularity', 'metrics', 'include_children'];

/**
 * Organisation analytics (GET /organisations/{id}/analytics) as charts: the whole organisation or
 * one unit, a window of days, hour, day or month, with the units below or not. The URL keeps the
 * choice (a link shows the same charts); every change asks the API again.
 */
export function AnalyticsPanel() {
  const identity = useSession()?.identity;
  const zone = useOrganisationZone();
  if (!identity || !zone) return <Loader aria-label="Loading" />;
  return <Analytics tenantId={identity.organisationId} tenantName={identity.organisationName} zone={zone.name} zoneKnown={zone.known} />;
}

function Analytics({ tenantId, tenantName, zone, zoneKnown }: { tenantId: string; tenantName?: string; zone: string; zoneKnown: boolean }) {
  const [params, setParams] = useSearchParams();
  const [view, setView] = useState<'chart' | 'table'>('chart');
  const defaults = { from: dayInZone(zone, 29), to: dayInZone(zone) };
  const choice = choiceOf(params, tenantId, defaults);
  const units = useLoad(() => loadAll((page, size) => ok(api.GET('/organisations', { params: { query: { page, size, sort: 'name', order: 'ASC' } } }))), []);
  const answer = useLoad(
    () => ok(api.GET('/organisations/{id}/analytics', { params: { path: { id: choice.unit }, query: queryOf(choice, zone) } })),
    [params.toString(), zone],
  );
  const placed = answer.error ? placeError(answer.error, FIELDS) : undefined;
  const errorOf = (f: string) => (placed?.field === f ? placed.message : undefined);

  const change = (c: Partial<Choice>) => {
    // From the address as it is now, not as this render saw it: two changes in a row (a date typed,
    // then "By hour" picked before the page drew the first) must both stay.
    const next = { ...choiceOf(new URLSearchParams(window.location.search), tenantId, defaults), ...c };
    // Wallets have no unit: asked for one, the API refuses them.
    if (next.unit !== tenantId) next.metrics = next.metrics.filter((m) => m !== 'wallets');
    setParams({
      unit: next.unit === tenantId ? '' : next.unit,
      from: next.from,
      to: next.to,
      granularity: next.granularity,
      children: String(next.children),
      metrics: next.metrics.join(','),
    }, { replace: true });
  };

  const unitOptions = [
    { value: tenantId, label: `Whole organisation${tenantName ? ` (${tenantName})` : ''}` },
    ...(units.data ?? []).map((u) => ({ value: u.id, label: `${u.name} (${u.type.toLowerCase()})` })),
  ];
  const shown = METRICS.filter((m) => choice.metrics.includes(m.key) && answer.data?.content[0]?.[m.key]);
  return (
    <Stack>
      <form onSubmit={(e) => e.preventDefault()} aria-label="Analytics">
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
            <Select
              label="Organisation"
              data={unitOptions}
              value={choice.unit}
              onChange={(v) => v && change({ unit: v })}
              searchable
              allowDeselect={false}
              description={units.error ? `Units not loaded: ${units.error.message}` : 'The whole organisation, or a merchant, venue or subsidiary'}
            />
            <TextInput type="date" label="From" description={`Days of ${zone}${zoneKnown ? '' : ' (your browser; the organisation settings could not be read)'}`} value={choice.from} onChange={(e) => change({ from: e.currentTarget.value })} error={errorOf('from')} />
            <TextInput type="date" label="Until" description="Included" value={choice.to} onChange={(e) => change({ to: e.currentTarget.value })} error={errorOf('to')} />
            <Input.Wrapper label="Granularity" error={errorOf('granularity')} id="analytics-granularity">
              <SegmentedControl
                fullWidth
                aria-label="Granularity"
                data={GRANULARITIES.map((g) => ({ value: g.value, label: g.label }))}
                value={choice.granularity}
                onChange={(v) => change({ granularity: v as Granularity })}
              />
            </Input.Wrapper>
          </SimpleGrid>
          <Checkbox.Group label="Metrics" value={choice.metrics} onChange={(v) => change({ metrics: METRICS.map((m) => m.key).filter((k) => v.includes(k)) as MetricKey[] })} error={errorOf('metrics')}>
            <Group mt={4} gap="md">
              {METRICS.map((m) => (
                <Checkbox key={m.key} value={m.key} label={m.label} disabled={m.tenantOnly && choice.unit !== tenantId} title={m.description} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group justify="space-between" align="flex-end">
            <Switch
              label="Include the units below"
              description="One more series per unit below; each counts its own units and all below it"
              checked={choice.children}
              onChange={(e) => change({ children: e.currentTarget.checked })}
              error={errorOf('include_children')}
            />
            <Stack gap={4}>
              <Text size="sm" fw={500} id="analytics-view-label">Show as</Text>
              <SegmentedControl
                aria-labelledby="analytics-view-label"
                data={[{ value: 'chart', label: 'Charts' }, { value: 'table', label: 'Tables' }]}
                value={view}
                onChange={(v) => setView(v as 'chart' | 'table')}
              />
            </Stack>
          </Group>
        </Stack>
      </form>
      {answer.error && !placed?.field && <Alert color="red" title="Cannot load the analytics">{placed?.message}</Alert>}
      {answer.loading && !answer.data && <Loader aria-label="Loading the analytics" />}
      {answer.data && !answer.error && (
        <Stack data-testid="analytics-charts" aria-busy={answer.loading}>
          {shown.length === 0 && <Text c="dimmed">Choose at least one metric.</Text>}
          {shown.map((m) => (
            <MetricChart
              key={m.key} metric={m} granularity={choice.granularity} zone={zone} view={view}
              series={answer.data!.content.map((item) => ({ id: item.organisationId, name: item.organisationName, points: item[m.key] ?? [] }))}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
