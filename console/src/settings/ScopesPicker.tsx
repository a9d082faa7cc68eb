import { Checkbox, Table, Text } from '@mantine/core';
import { useId } from 'react';
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
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0 }} aria-describedby={error ? errorId : undefined}>
      <Text component="legend" size="sm" fw={500}>Scopes</Text>
      <Checkbox
        my="xs"
        label="All, including groups added later (*)"
        checked={value.all}
        onChange={(e) => onChange({ ...value, all: e.currentTarget.checked })}
      />
      <Table.ScrollContainer minWidth={420} mah={320}>
        <Table striped withTableBorder aria-label="Scopes by group">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Group</Table.Th>
              <Table.Th scope="col">Read</Table.Th>
              <Table.Th scope="col">Write</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SCOPE_GROUPS.map((g) => (
              <Table.Tr key={g}>
                <Table.Th scope="row" fw={400}>{GROUP_LABELS[g]} <Text span size="xs" c="dimmed">{g}</Text></Table.Th>
                <Table.Td>
                  <Checkbox aria-label={`${g}:read`} disabled={value.all} checked={value.all || value.read.has(g)} onChange={(e) => toggle('read', g, e.currentTarget.checked)} />
                </Table.Td>
                <Table.Td>
                  <Checkbox aria-label={`${g}:write`} disabled={value.all} checked={value.all || value.write.has(g)} onChange={(e) => toggle('write', g, e.currentTarget.checked)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {error && <Text size="sm" c="red" role="alert" id={errorId} mt={4}>{error}</Text>}
    </fieldset>
  );
}
