import { ActionIcon, Button, Group, MultiSelect, Paper, Select, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import type { AttributeDef } from '../api/types';
import { emptyFilter, field, type DraftFilter } from './draft';
import type { Option } from './lookups';
import { OPERATOR_LABELS, useChoices, VALUE_HINTS } from './values';

interface Props {
  index: number;
  groups: DraftFilter[][];
  attributes: AttributeDef[];
  onChange: (groups: DraftFilter[][]) => void;
  errorOf: (field: string) => string | undefined;
}

/**
 * The action runs when it has no group, or when any group has all its filters true (OR of ANDs,
 * docs/automations.md "Filters"); each filter offers its attribute's operators only.
 */
export function FilterGroups({ index, groups, attributes, onChange, errorOf }: Props) {
  const setGroup = (g: number, filters: DraftFilter[]) => onChange(filters.length ? groups.map((x, i) => (i === g ? filters : x)) : groups.filter((_, i) => i !== g));
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>Conditions</Text>
      {groups.length === 0 && <Text size="sm" c="dimmed">Runs for every event. Add a condition to narrow it.</Text>}
      {groups.map((filters, g) => (
        <Paper key={g} withBorder p="xs" aria-label={`Condition group ${g + 1}`} component="fieldset">
          <Text size="xs" c="dimmed" mb={4}>{g === 0 ? 'Runs when all of these are true' : 'or when all of these are true'}</Text>
          <Stack gap="xs">
            {filters.map((f, n) => (
              <FilterRow
                key={f.key}
                filter={f}
                attributes={attributes}
                label={`Action ${index + 1}, group ${g + 1}, condition ${n + 1}`}
                errors={{
                  attribute: errorOf(field.filter(index, g, n, 'attribute')),
                  operator: errorOf(field.filter(index, g, n, 'operator')),
                  value: errorOf(field.filter(index, g, n, 'value')),
                }}
                onChange={(next) => setGroup(g, filters.map((x, i) => (i === n ? next : x)))}
                onRemove={() => setGroup(g, filters.filter((_, i) => i !== n))}
              />
            ))}
            <Group>
              <Button size="compact-sm" variant="subtle" onClick={() => setGroup(g, [...filters, emptyFilter()])}>And…</Button>
            </Group>
          </Stack>
        </Paper>
      ))}
      <Group>
        <Button size="compact-sm" variant="light" onClick={() => onChange([...groups, [emptyFilter()]])}>
          {groups.length ? 'Or…' : 'Add a condition'}
        </Button>
      </Group>
    </Stack>
  );
}

interface RowProps {
  filter: DraftFilter;
  attributes: AttributeDef[];
  label: string;
  errors: { attribute?: string; operator?: string; value?: string };
  onChange: (f: DraftFilter) => void;
  onRemove: () => void;
}

function FilterRow({ filter, attributes, label, errors, onChange, onRemove }: RowProps) {
  const attr = attributes.find((a) => a.code === filter.attribute);
  const operators = attr?.operators ?? [];
  const choices = useChoices(attr);
  const pickAttribute = (code: string | null) => {
    const next = attributes.find((a) => a.code === code);
    const keep = next?.operators.includes(filter.operator as never) ? filter.operator : (next?.operators[0] ?? '');
    onChange({ ...filter, attribute: code ?? '', operator: keep, value: '', values: [] });
  };
  return (
    <Group align="flex-start" gap="xs" wrap="wrap" role="group" aria-label={label}>
      <Select
        label="Attribute"
        data={attributes.map((a) => ({ value: a.code, label: a.label }))}
        value={filter.attribute || null}
        onChange={pickAttribute}
        searchable
        w={200}
        error={errors.attribute}
      />
      <Select
        label="Operator"
        data={operators.map((o) => ({ value: o, label: OPERATOR_LABELS[o] ?? o }))}
        value={filter.operator || null}
        onChange={(o) => onChange({ ...filter, operator: o ?? '' })}
        disabled={!attr}
        w={150}
        error={errors.operator}
      />
      <ValueInput filter={filter} attr={attr} choices={choices.options} loading={choices.loading} error={errors.value} onChange={onChange} />
      <ActionIcon variant="subtle" color="red" mt={26} onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`}>
        ×
      </ActionIcon>
    </Group>
  );
}

interface ValueProps {
  filter: DraftFilter;
  attr?: AttributeDef;
  choices?: Option[];
  loading: boolean;
  error?: string;
  onChange: (f: DraftFilter) => void;
}

/** A value chosen from the attribute's list when it has one (GET /automation_events), else typed, with a hint of what it is. */
function ValueInput({ filter, attr, choices, loading, error, onChange }: ValueProps) {
  const type = attr?.type;
  const common = { label: 'Value', error, w: 260 };
  // A stored value the list lacks (a record deleted since, a code stored before) stays visible.
  const known = (values: string[]) => (choices ? [...choices, ...values.filter((v) => v && !choices.some((c) => c.value === v)).map((v) => ({ value: v, label: v }))] : []);
  const placeholder = loading ? 'Loading…' : undefined;
  if (filter.operator === 'IN') {
    return choices ? (
      <MultiSelect {...common} data={known(filter.values)} value={filter.values} onChange={(values) => onChange({ ...filter, values })} searchable placeholder={placeholder} />
    ) : (
      <TagsInput {...common} value={filter.values} onChange={(values) => onChange({ ...filter, values })} description={hintOf(attr, 'Press Enter after each value')} />
    );
  }
  if (choices) {
    return <Select {...common} data={known([filter.value])} value={filter.value || null} onChange={(v) => onChange({ ...filter, value: v ?? '' })} searchable placeholder={placeholder} nothingFoundMessage="Nothing found" />;
  }
  if (type === 'DATE') {
    // Epoch seconds in the API; a local date and time here.
    const local = filter.value ? new Date(Number(filter.value) * 1000).toISOString().slice(0, 16) : '';
    return (
      <TextInput
        {...common}
        type="datetime-local"
        value={local}
        onChange={(e) => onChange({ ...filter, value: e.currentTarget.value ? String(Math.floor(new Date(`${e.currentTarget.value}Z`).getTime() / 1000)) : '' })}
        description="UTC"
      />
    );
  }
  return (
    <TextInput
      {...common}
      inputMode={type === 'NUMBER' ? 'decimal' : undefined}
      description={hintOf(attr)}
      value={filter.value}
      onChange={(e) => onChange({ ...filter, value: e.currentTarget.value })}
    />
  );
}

function hintOf(attr: AttributeDef | undefined, also?: string): string | undefined {
  const hint = attr ? VALUE_HINTS[attr.value_type] : undefined;
  return [hint, also].filter(Boolean).join('. ') || undefined;
}
