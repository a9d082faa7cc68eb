import { Alert, Button, Divider, Group, MultiSelect, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { bodyOf, emptyDraft, fieldOf, type ReportDraft } from './draft';
import { FilterRows } from './FilterRows';
import { PreviewTable } from './PreviewTable';
import { RunsList } from './RunsList';
import type { Format, PreviewRecord, Report } from './types';

interface Props {
  report: Report;
  zone: string;
  /** The signed-in user's e-mail address (GET /users/me): where a run is sent. */
  email: string | null | undefined;
}

/** Field errors, or a refusal no field of the form names, shown beside the button that met it. */
type Placed = { errors: Record<string, string>; failure?: { at: 'preview' | 'run'; message: string } };

/** One report: its filters, columns and groups; a preview; a run mailed to the user; its runs. */
export function ReportView({ report, zone, email }: Props) {
  const [draft, setDraft] = useState<ReportDraft>(emptyDraft);
  const [placed, setPlaced] = useState<Placed>({ errors: {} });
  const [preview, setPreview] = useState<{ records: PreviewRecord[]; grouped: boolean }>();
  const [busy, setBusy] = useState<'preview' | 'run'>();
  const [runs, setRuns] = useState(0);
  // Another report: nothing of this one's form applies.
  useEffect(() => {
    setDraft(emptyDraft());
    setPlaced({ errors: {} });
    setPreview(undefined);
  }, [report.id]);

  const errorOf = (field: string) => placed.errors[field];
  const refusal = (err: unknown, rows: number[], at: 'preview' | 'run') => {
    const p = placeError(err, (a) => fieldOf(a, rows));
    setPlaced(p.field ? { errors: { [p.field]: p.message } } : { errors: {}, failure: { at, message: p.message } });
  };

  async function showPreview(e: FormEvent) {
    e.preventDefault();
    const { body, rows } = bodyOf(draft);
    setBusy('preview');
    setPlaced({ errors: {} });
    try {
      // A browser cannot send a body with GET: the API takes the same JSON in `?body=`.
      const answer = await ok(api.GET('/reports/{id}/preview', { params: { path: { id: report.id }, query: { body: JSON.stringify(body) } } }));
      setPreview({ records: answer.content, grouped: draft.groupBy.length > 0 });
    } catch (err) {
      setPreview(undefined);
      refusal(err, rows, 'preview');
    } finally {
      setBusy(undefined);
    }
  }

  async function run() {
    const { body, rows } = bodyOf(draft);
    setBusy('run');
    setPlaced({ errors: {} });
    try {
      await ok(api.POST('/reports/{id}', { params: { path: { id: report.id } }, body: { ...body, format: draft.format } }));
      notifications.show({ color: 'green', message: `${report.name}: the ${draft.format} file is on its way to ${email ?? 'your e-mail'}` });
      setRuns((v) => v + 1);
    } catch (err) {
      refusal(err, rows, 'run');
    } finally {
      setBusy(undefined);
    }
  }

  const columnOptions = report.columns.map((c) => ({ value: c.key, label: c.label }));
  const groupOptions = report.columns.filter((c) => c.groupable).map((c) => ({ value: c.key, label: c.label }));
  return (
    <Stack>
      <div>
        <Title order={2} size="h3">{report.name}</Title>
        <Text c="dimmed" size="sm">{report.description}</Text>
      </div>
      <form onSubmit={showPreview} noValidate aria-label={`${report.name} report`}>
        <Stack>
          {placed.failure?.at === 'preview' && <Alert color="red" role="alert" title="No preview">{placed.failure.message}</Alert>}
          <FilterRows columns={report.columns} filters={draft.filters} onChange={(filters) => setDraft({ ...draft, filters })} errorOf={errorOf} zone={zone} />
          <MultiSelect
            label="Columns"
            description="In the order chosen. None: every column of the report (the preview shows the first 10)."
            data={columnOptions}
            value={draft.columns}
            onChange={(columns) => setDraft({ ...draft, columns })}
            searchable
            clearable
            error={errorOf('columns')}
          />
          <MultiSelect
            label="Group by"
            description="One row per distinct value (dates: per day), with a count; amounts are summed. Columns may then name only these and amounts."
            data={groupOptions}
            value={draft.groupBy}
            onChange={(groupBy) => setDraft({ ...draft, groupBy })}
            searchable
            clearable
            error={errorOf('groupBy')}
          />
          <Group>
            <Button type="submit" loading={busy === 'preview'}>Preview</Button>
          </Group>
        </Stack>
      </form>
      {preview && (
        <section aria-label="Preview">
          <Text size="sm" c="dimmed" mb={4} aria-live="polite">
            {preview.records.length === 10 ? 'The first 10 records' : `${preview.records.length} record${preview.records.length === 1 ? '' : 's'}`} (dates in {zone})
          </Text>
          <PreviewTable name={report.name} records={preview.records} columns={report.columns} zone={zone} grouped={preview.grouped} />
        </section>
      )}
      <Paper withBorder p="md">
        <Stack gap="sm">
          <Title order={3} size="h4">Run to my e-mail</Title>
          <Text size="sm">
            Every record, with the filters, columns and groups above, as a file e-mailed to{' '}
            {email ? <Text span fw={600} data-testid="run-recipient">{email}</Text> : 'your e-mail address'}.
          </Text>
          {email === null && (
            <Alert color="yellow" title="Your user has no e-mail address">An admin can set it under Settings, Users. Until then the service refuses to run reports for you.</Alert>
          )}
          <Group align="flex-end">
            <Stack gap={4}>
              <Text size="sm" fw={500} id="report-format-label">Format</Text>
              <SegmentedControl
                aria-labelledby="report-format-label"
                data={[{ value: 'CSV', label: 'CSV' }, { value: 'PDF', label: 'PDF' }]}
                value={draft.format}
                onChange={(v) => setDraft({ ...draft, format: v as Format })}
              />
            </Stack>
            <Button onClick={() => void run()} loading={busy === 'run'}>Run to my e-mail</Button>
          </Group>
          {errorOf('format') && <Text c="red" size="sm">{errorOf('format')}</Text>}
          {placed.failure?.at === 'run' && <Alert color="red" role="alert" title="Not run">{placed.failure.message}</Alert>}
        </Stack>
      </Paper>
      <Divider />
      <Title order={3} size="h4">Runs of {report.name}</Title>
      <RunsList reportId={report.id} version={runs} />
    </Stack>
  );
}
