import { Alert, Badge, Button, Group, Loader, Table, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
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
  const rows = runs.data?.content ?? [];
  const following = rows.some((r) => r.state === 'PENDING' || r.state === 'RUNNING');
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
      {runs.error && <Alert color="red" title="Cannot load the runs">{runs.error.message}</Alert>}
      {!runs.data && !runs.error && <Loader aria-label="Loading the runs" />}
      {runs.data && rows.length === 0 && <Text c="dimmed">Not run yet.</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={760}>
          <Table striped aria-label="Runs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Requested</Table.Th>
                <Table.Th scope="col">Format</Table.Th>
                <Table.Th scope="col" miw={110}>State</Table.Th>
                <Table.Th scope="col">Sent to</Table.Th>
                <Table.Th scope="col" ta="right">Rows</Table.Th>
                <Table.Th scope="col" ta="right">Size</Table.Th>
                <Table.Th scope="col">Finished</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id} data-testid="run-row" data-run-id={r.id}>
                  <Table.Td>{when(r.created_on)}</Table.Td>
                  <Table.Td>{r.format}</Table.Td>
                  <Table.Td miw={110}>
                    <Badge color={COLOURS[r.state]} data-testid="run-state" style={{ overflow: 'visible' }}>{r.state}</Badge>
                    {r.error && <Text size="xs" c="red" data-testid="run-error">{r.error}</Text>}
                  </Table.Td>
                  <Table.Td>{r.recipient}</Table.Td>
                  <Table.Td ta="right" data-testid="run-rows">{r.row_count ?? '—'}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>{bytes(r.byte_count)}</Table.Td>
                  <Table.Td>{when(r.completed_on)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
