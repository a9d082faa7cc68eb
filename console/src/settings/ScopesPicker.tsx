import { Checkbox, Text } from '@mantine/core';
import { useId } from 'react';
import { DataTable } from '../components/DataTable';
import { GROUP_LABELS, SCOPE_GROUPS, type Choice, type ScopeGroup } from './scopes';

/**
 * Scopes of a new API key or a user: "All (*)" or, per group, read and/or write. One checkbox per
 * scope, named by the scope itself (`contacts:read`) for screen readers and tests.
 */
export function ScopesPicker({ value, onChange, error }: { value: Choice; onChange: (choice: Choice) => void; error?: string }) {
  const errorId = useId();
  const toggle = (half: 'read' | 'write', g: ScopeGroup, on: boolean) => {
    const next = new Set(value[half]);
    if (on) next.add(g);
    else next.delete(g);
    onChange({ ...value, [half]: next });
  };
  const checkbox = (half: 'read' | 'write') => (g: ScopeGroup) => (
    <Checkbox aria-label={`${g}:${half}`} disabled={value.all} checked={value.all || value[half].has(g)} onChange={(e) => toggle(half, g, e.currentTarget.checked)} />
  );
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0 }} aria-describedby={error ? errorId : undefined}>
      <Text component="legend" size="sm" fw={500}>Scopes</Text>
      <Checkbox
        my="xs"
        label="All, including groups added later (*)"
        checked={value.all}
        onChange={(e) => onChange({ ...value, all: e.currentTarget.checked })}
      />
      <DataTable
        rows={SCOPE_GROUPS}
        aria-label="Scopes by group" striped withTableBorder scroll={{ minWidth: 420, mah: 320 }} rowKey={(g) => g}
        columns={[
          { header: 'Group', rowHeader: { fw: 400 }, cell: (g) => <>{GROUP_LABELS[g]} <Text span size="xs" c="dimmed">{g}</Text></> },
          { header: 'Read', cell: checkbox('read') },
          { header: 'Write', cell: checkbox('write') },
        ]}
      />
      {error && <Text size="sm" c="red" role="alert" id={errorId} mt={4}>{error}</Text>}
    </fieldset>
  );
}
