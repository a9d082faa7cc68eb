import { ActionIcon, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { ActionDef, AttributeDef } from '../api/types';
import { field, type DraftAction } from './draft';
import { FilterGroups } from './FilterGroups';
import { ParameterInput } from './ParameterInput';

interface Props {
  index: number;
  count: number;
  action: DraftAction;
  def: ActionDef | undefined;
  adaptorName: string;
  attributes: AttributeDef[];
  errorOf: (field: string) => string | undefined;
  onChange: (a: DraftAction) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  onCopyFilters: () => void;
}

/** One step of the sequence: its parameters (forms from GET /adaptors) and its conditions. */
export function ActionCard({ index, count, action, def, adaptorName, attributes, errorOf, onChange, onMove, onRemove, onCopyFilters }: Props) {
  const title = `${index + 1}. ${def?.name ?? action.action}`;
  return (
    <Card withBorder component="section" aria-label={`Action ${index + 1}: ${def?.name ?? action.action}`} data-testid={`action-${index + 1}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Group gap="xs">
            <Text fw={600}>{title}</Text>
            <Badge variant="light">{adaptorName}</Badge>
          </Group>
          <Group gap={4} wrap="nowrap">
            <ActionIcon variant="default" onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Move action ${index + 1} up`}>↑</ActionIcon>
            <ActionIcon variant="default" onClick={() => onMove(1)} disabled={index === count - 1} aria-label={`Move action ${index + 1} down`}>↓</ActionIcon>
            <ActionIcon variant="subtle" color="red" onClick={onRemove} aria-label={`Remove action ${index + 1}`}>×</ActionIcon>
          </Group>
        </Group>
        {def && <Text size="sm" c="dimmed">{def.description}</Text>}
        {errorOf(field.action(index)) && <Text c="red" size="sm" role="alert">{errorOf(field.action(index))}</Text>}
        {def?.rules.map((r) => <Text key={r} size="xs" c="dimmed">{r}</Text>)}
        {errorOf(field.params(index)) && <Text c="red" size="sm" role="alert">{errorOf(field.params(index))}</Text>}
        {def?.parameters.map((p) => (
          <ParameterInput
            key={p.parameter_key}
            def={p}
            value={action.params[p.parameter_key] ?? ''}
            onChange={(v) => onChange({ ...action, params: { ...action.params, [p.parameter_key]: v } })}
            error={errorOf(field.param(index, p.parameter_key))}
          />
        ))}
        <FilterGroups index={index} groups={action.groups} attributes={attributes} errorOf={errorOf} onChange={(groups) => onChange({ ...action, groups })} />
        {count > 1 && action.groups.length > 0 && (
          <Group>
            <Button size="compact-xs" variant="subtle" onClick={onCopyFilters}>Use these conditions on every action</Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}
