import { Table, Text } from '@mantine/core';
import { cellText, fieldType, isNumeric } from './cells';
import type { Column, PreviewRecord } from './types';

/** The preview's records (at most 10) under the labels the run's file will have. */
export function PreviewTable({ name, records, columns, zone, grouped }: { name: string; records: PreviewRecord[]; columns: Column[]; zone: string; grouped: boolean }) {
  if (records.length === 0) return <Text c="dimmed" data-testid="preview-empty">No record matches the filters.</Text>;
  const fields = [...records[0].fields].sort((a, b) => a.order - b.order);
  const types = fields.map((f) => fieldType(columns, f.key));
  return (
    <Table.ScrollContainer minWidth={Math.max(600, fields.length * 120)}>
      <Table striped aria-label={`Preview of ${name}`} data-testid="preview-table">
        <Table.Thead>
          <Table.Tr>
            {fields.map((f, i) => (
              <Table.Th key={f.order} scope="col" ta={isNumeric(types[i]) ? 'right' : undefined}>{f.label}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((r, row) => {
            const cells = [...r.fields].sort((a, b) => a.order - b.order);
            return (
              <Table.Tr key={row} data-testid="preview-row">
                {cells.map((c, i) => (
                  <Table.Td key={c.order} ta={isNumeric(types[i]) ? 'right' : undefined} style={{ whiteSpace: 'nowrap' }}>
                    {cellText(c, types[i], zone, grouped)}
                  </Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
