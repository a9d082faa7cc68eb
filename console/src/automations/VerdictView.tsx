import { Badge, Card, Code, Group, Stack, Text } from '@mantine/core';
import { DataTable } from '../components/DataTable';
import { when } from '../components/format';
import { actionOf, entityOf, eventName, type Catalogue } from './catalogue';
import { explainReason, stateLabel, STATUS_COLOURS } from './runs';
import type { ActionVerdict, FilterVerdict, RunVerdict } from './simulations';
import { OPERATOR_LABELS } from './values';

/** A value as the API gave it: text as it is, anything else as JSON; a missing one says so. */
export const shownValue = (v: unknown) => (v === null || v === undefined ? '— (not in the event)' : typeof v === 'string' ? v : JSON.stringify(v));

/**
 * What a simulation says one event would do: per action its verdict, the reason, every filter with
 * the event's actual value, and the effect rendered as the run would send or write it. Try it and
 * a replay's samples show the same view.
 */
export function VerdictView({ verdict, catalogue, entity }: { verdict: RunVerdict; catalogue: Catalogue; entity: string }) {
  const attributes = entityOf(catalogue, entity)?.attributes ?? [];
  return (
    <Stack gap="sm" data-testid="verdict">
      <Group gap="xs">
        <Badge color={verdict.would_run ? 'green' : 'gray'} data-testid="verdict-would-run">{verdict.would_run ? 'Would run' : 'Would do nothing'}</Badge>
        <Text size="sm">{eventName(catalogue, entity, verdict.event.type)} · {when(verdict.event.occurred_on)}</Text>
        <Text size="sm" c="dimmed">{verdict.entity.type} {verdict.entity.id}</Text>
      </Group>
      {verdict.actions.map((a) => {
        const name = actionOf(catalogue, a.adaptor, a.adaptor_action)?.name ?? a.adaptor_action;
        return (
          <Card key={a.id} withBorder component="section" aria-label={`Action ${a.order}: ${name}`} data-testid="action-verdict">
            <Stack gap="xs">
              <Group gap="xs">
                <Text fw={600}>{a.order}. {name}</Text>
                <Badge variant="light" color={STATUS_COLOURS[a.verdict]} data-testid="action-verdict-state">{stateLabel(a.verdict)}</Badge>
              </Group>
              {a.reason && <Text size="sm" c="dimmed" data-testid="action-verdict-reason">{explainReason(a.reason, attributes)}</Text>}
              {a.filters.length > 0 && (
                <DataTable
                  rows={a.filters} rowKey={(f) => f.id} compact rowTestId="filter-verdict" scroll={{ minWidth: 560 }}
                  columns={[
                    { header: 'Group', w: 60, cell: (f) => f.group + 1 },
                    { header: 'Attribute', cell: (f) => attributes.find((x) => x.code === f.attribute)?.label ?? f.attribute },
                    { header: 'Condition', cell: (f) => `${OPERATOR_LABELS[f.operator] ?? f.operator} ${filterValue(f)}` },
                    { header: 'Actual', testId: 'filter-actual', cell: (f) => shownValue(f.actual) },
                    { header: 'Passed', w: 80, testId: 'filter-passed', cell: (f) => <Badge size="sm" variant="light" color={f.passed ? 'green' : 'red'}>{f.passed ? 'Yes' : 'No'}</Badge> },
                  ]}
                />
              )}
              {a.effect && <Effect effect={a.effect} />}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}

const filterValue = (f: FilterVerdict) => (f.value_list ? f.value_list.join(', ') : shownValue(f.value));

/** `custom_field_key` → "Custom field key". */
const labelOf = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');

/**
 * The rendered effect, field by field as the API names them (docs/automations.md "Simulations"):
 * a webhook's request as method, URL and the body as it would be signed; a message's channel,
 * recipient, subject and content; an approval, a content update, an assignment. Nothing was sent.
 */
function Effect({ effect }: { effect: NonNullable<ActionVerdict['effect']> }) {
  const { kind, ...fields } = effect;
  const isWebhook = kind === 'WEBHOOK';
  const sends = ['WEBHOOK', 'COMMUNICATION', 'EMAIL'].includes(kind);
  const rows = Object.entries(fields).filter(([k, v]) => v !== null && v !== undefined && !(isWebhook && ['method', 'url', 'body'].includes(k)));
  return (
    <Stack gap={4} data-testid="effect" aria-label="Effect, not performed">
      <Text size="sm" fw={600}>Would {sends ? 'send' : 'do'} ({labelOf(kind.toLowerCase())}, not performed)</Text>
      {isWebhook && <Code data-testid="effect-request">{`${String(fields.method)} ${String(fields.url)}`}</Code>}
      <DataTable
        rows={rows} rowKey={([k]) => k} compact
        columns={[
          { rowHeader: { fw: 500, c: 'dimmed' }, w: 160, cell: ([k]) => labelOf(k) },
          { cell: ([k, v]) => (typeof v === 'object' ? <Code block>{JSON.stringify(v, null, 2)}</Code> : k.endsWith('_on') && typeof v === 'number' ? when(v) : String(v)), style: { whiteSpace: 'pre-wrap', wordBreak: 'break-word' } },
        ]}
      />
      {isWebhook && fields.body !== undefined && <Code block data-testid="effect-body">{JSON.stringify(fields.body, null, 2)}</Code>}
    </Stack>
  );
}
