import { Badge, Button, Group, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { DataTable } from '../components/DataTable';
import { when } from '../components/format';
import { Loading } from '../components/Loading';
import type { RunState } from './types';

/** While a run shown is PENDING or RUNNING the list reads again this often, so SENT or FAILED appears by itself. */
const FOLLOW_MS = 2000;
const SIZE = 10;
const COLOURS: Record<RunState, string> = { PENDING: 'yellow', RUNNING: 'blue', SENT: 'green', FAILED: 'red' };

const bytes = (n: number | null) => (n === null ? '—' : n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(1)} MiB`);

/** A report's latest runs (GET /reports/{id}/runs, newest first): state, recipient, rows, size, error. */
export function RunsList({ reportId, version }: { reportId: string; version: number }) {
  const [tick, setTick] = useState(0);
  const runs = useLoad(() => ok(api.GET('/reports/{id}/runs', { params: { path: { id: reportId }, query: { size: SIZE } } })), [reportId, version, tick]);
  const following = runs.data?.content.some((r) => r.state === 'PENDING' || r.state === 'RUNNING') ?? false;
  useEffect(() => {
    if (!following) return;
    const timer = setTimeout(() => setTick((t) => t + 1), FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [following, runs.data]);

  return (
    <>
      <Group gap="sm">
        <Button variant="default" size="xs" onClick={() => setTick((t) => t + 1)}>Refresh</Button>
        {following && <Text size="sm" c="dimmed" aria-live="polite">Following runs in progress…</Text>}
        {runs.data && runs.data.paging.total > SIZE && <Text size="sm" c="dimmed">The {SIZE} latest of {runs.data.paging.total} runs</Text>}
      </Group>
      <Loading loaded={runs} what="the runs">
        {(data) => (
          <DataTable
            rows={data.content}
            empty="Not run yet."
            aria-label="Runs" striped scroll={{ minWidth: 760 }} rowTestId="run-row" rowKey={(r) => r.id} rowData={(r) => ({ 'data-run-id': r.id })}
            columns={[
              { header: 'Requested', cell: (r) => when(r.created_on) },
              { header: 'Format', cell: (r) => r.format },
              {
                header: 'State',
                miw: 110,
                cell: (r) => (
                  <>
                    <Badge color={COLOURS[r.state]} data-testid="run-state" style={{ overflow: 'visible' }}>{r.state}</Badge>
                    {r.error && <Text size="xs" c="red" data-testid="run-error">{r.error}</Text>}
                  </>
                ),
              },
              { header: 'Sent to', cell: (r) => r.recipient },
              { header: 'Rows', align: 'right', cell: (r) => r.row_count ?? '—', testId: 'run-rows' },
              { header: 'Size', align: 'right', cell: (r) => bytes(r.byte_count), style: { whiteSpace: 'nowrap' } },
              { header: 'Finished', cell: (r) => when(r.completed_on) },
            ]}
          />
        )}
      </Loading>
    </>
  );
}
