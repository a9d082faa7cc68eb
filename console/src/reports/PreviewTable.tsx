import { DataTable } from '../components/DataTable';
import { cellText, fieldType, isNumeric } from './cells';
import type { Column, PreviewField, PreviewRecord } from './types';

const inOrder = (fields: PreviewField[]) => [...fields].sort((a, b) => a.order - b.order);

/** The preview's records (at most 10) under the labels the run's file will have. */
export function PreviewTable({ name, records, columns, zone, grouped }: { name: string; records: PreviewRecord[]; columns: Column[]; zone: string; grouped: boolean }) {
  const fields = inOrder(records[0]?.fields ?? []);
  return (
    <DataTable
      rows={records.map((r) => inOrder(r.fields))}
      empty="No record matches the filters."
      aria-label={`Preview of ${name}`} data-testid="preview-table" striped scroll={{ minWidth: Math.max(600, fields.length * 120) }} rowTestId="preview-row" rowKey={(_, row) => row}
      columns={fields.map((f, i) => {
        const type = fieldType(columns, f.key);
        return { header: f.label, align: isNumeric(type) ? 'right' : undefined, style: { whiteSpace: 'nowrap' }, cell: (cells: PreviewField[]) => cellText(cells[i], type, zone, grouped) };
      })}
    />
  );
}
