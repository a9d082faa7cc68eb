import { ActionIcon, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { dayRange, daysOf, typeOf, VALUE_HINTS, type FilterDraft } from './draft';
import type { Column } from './types';

interface Props {
  columns: Column[];
  filters: FilterDraft[];
  onChange: (filters: FilterDraft[]) => void;
  errorOf: (field: string) => string | undefined;
  zone: string;
}

/** The report's filters, one row each: a filterable column and a value in the API's syntax for its type. All must match. */
export function FilterRows({ columns, filters, onChange, errorOf, zone }: Props) {
  const options = columns.filter((c) => c.filterable).map((c) => ({ value: c.key, label: c.label }));
  const set = (i: number, change: Partial<FilterDraft>) => onChange(filters.map((f, j) => (j === i ? { ...f, ...change } : f)));
  return (
    <Stack gap="xs" role="group" aria-labelledby="report-filters-title">
      <Text fw={500} size="sm" id="report-filters-title">Filters <Text span c="dimmed" size="sm">(all must match)</Text></Text>
      {filters.map((f, i) => {
        const type = typeOf(columns, f.key);
        const n = i + 1;
        return (
          <Group key={i} align="flex-start" wrap="wrap" gap="xs" data-testid="filter-row">
            <Select
              label={`Filter ${n} column`}
              placeholder="Choose a column"
              data={options}
              value={f.key}
              // A new column keeps no value of another type.
              onChange={(key) => set(i, { key, value: typeOf(columns, key) === type ? f.value : '' })}
              searchable
              clearable
              error={errorOf(`filter.${i}.key`)}
              w={240}
            />
            {type === 'DATE' ? (
              <DayRange n={n} value={f.value} onChange={(value) => set(i, { value })} error={errorOf(`filter.${i}.value`)} zone={zone} />
            ) : type === 'BOOLEAN' ? (
              <Select
                label={`Filter ${n} value`}
                data={[{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }]}
                value={f.value || null}
                onChange={(v) => set(i, { value: v ?? '' })}
                error={errorOf(`filter.${i}.value`)}
                w={160}
              />
            ) : (
              <TextInput
                label={`Filter ${n} value`}
                description={type ? VALUE_HINTS[type] : undefined}
                value={f.value}
                onChange={(e) => set(i, { value: e.currentTarget.value })}
                error={errorOf(`filter.${i}.value`)}
                disabled={!f.key}
                style={{ flex: '1 1 240px' }}
              />
            )}
            <ActionIcon
              variant="subtle"
              color="gray"
              mt={26}
              aria-label={`Remove filter ${n}`}
              onClick={() => onChange(filters.length > 1 ? filters.filter((_, j) => j !== i) : [{ key: null, value: '' }])}
            >
              ×
            </ActionIcon>
          </Group>
        );
      })}
      <Group>
        <Button variant="default" size="xs" onClick={() => onChange([...filters, { key: null, value: '' }])}>Add a filter</Button>
      </Group>
    </Stack>
  );
}

/** A DATE filter as two days (`from..to`, either end optional); the API's refusal shows at the first. */
function DayRange({ n, value, onChange, error, zone }: { n: number; value: string; onChange: (v: string) => void; error?: string; zone: string }) {
  const [from, to] = daysOf(value);
  return (
    <Group gap="xs" align="flex-start" wrap="wrap">
      <TextInput type="date" label={`Filter ${n} from`} description={`Days in ${zone}, both included`} value={from} onChange={(e) => onChange(dayRange(e.currentTarget.value, to))} error={error} />
      <TextInput type="date" label={`Filter ${n} until`} description="Empty: no end" value={to} onChange={(e) => onChange(dayRange(from, e.currentTarget.value))} error={error ? true : undefined} />
    </Group>
  );
}
