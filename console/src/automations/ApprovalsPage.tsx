import { Alert, Badge, Button, Group, Modal, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import type { ActionRecord } from '../api/types';
import { useLoad } from '../api/useLoad';
import { STATUS_COLOURS } from './runs';
import { DataTable } from '../components/DataTable';
import { when } from '../components/format';
import { Loading } from '../components/Loading';

const APPROVALS = { id: 'APPROVAL_REQUESTS', action_id: 'REQUEST_APPROVAL' };
const attribute = (r: ActionRecord, key: string) => r.record_attributes.find((a) => a.key === key)?.value ?? null;

type Decision = { record: ActionRecord; status: 'APPROVED' | 'REJECTED' };

/** The Approval Requests adaptor's pending requests: approve or reject with a comment; the waiting run goes on. */
export function ApprovalsPage() {
  const inbox = useLoad(async () => {
    const [pending, approved, rejected] = await Promise.all(
      (['PENDING', 'APPROVED', 'REJECTED'] as const).map((status) =>
        ok(api.GET('/adaptors/{id}/actions/{action_id}/records', { params: { path: APPROVALS, query: { status, size: status === 'PENDING' ? 100 : 10, sort: 'updated_on' } } })),
      ),
    );
    const decided = [...approved.content, ...rejected.content].sort((a, b) => b.updated_on - a.updated_on).slice(0, 10);
    return { pending: pending.content, decided };
  }, []);
  const [deciding, setDeciding] = useState<Decision>();

  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Title order={1} size="h2">Approvals</Title>
        <Button variant="default" onClick={inbox.reload}>Refresh</Button>
      </Group>
      <Loading loaded={inbox} what="the approvals">
        {({ pending, decided }) => (
          <>
            <Title order={2} size="h3">Waiting for a decision</Title>
            <Requests records={pending} empty="Nothing waits for a decision." onDecide={setDeciding} />
            <Title order={2} size="h3">Recently decided</Title>
            <Requests records={decided} empty="None yet." />
          </>
        )}
      </Loading>
      {deciding && <DecisionDialog decision={deciding} onClose={() => setDeciding(undefined)} onDone={() => (setDeciding(undefined), inbox.reload())} />}
    </Stack>
  );
}

function Requests({ records, empty, onDecide }: { records: ActionRecord[]; empty: string; onDecide?: (d: Decision) => void }) {
  return (
    <DataTable
      rows={records}
      empty={empty}
      striped scroll={{ minWidth: 720 }} rowTestId="approval-row" rowKey={(r) => r.id}
      columns={[
        { header: 'Requested', cell: (r) => when(r.created_on) },
        { header: 'Automation', cell: (r) => r.automation.name },
        {
          header: 'About',
          cell: (r) => (
            <>
              {attribute(r, 'approval_entity_type') ?? r.entity.type} {r.entity.reference ?? r.entity.id}
              {attribute(r, 'notes') && <Text size="xs" c="dimmed">Comment: {attribute(r, 'notes')}</Text>}
            </>
          ),
        },
        { header: onDecide ? 'Decide' : 'Decision', cell: (r) => (onDecide ? <Decide record={r} onDecide={onDecide} /> : <Badge color={STATUS_COLOURS[r.status]}>{r.status}{r.reason ? `: ${r.reason}` : ''}</Badge>) },
      ]}
    />
  );
}

function Decide({ record, onDecide }: { record: ActionRecord; onDecide: (d: Decision) => void }) {
  return (
    <Group gap="xs">
      <Button size="xs" color="green" onClick={() => onDecide({ record, status: 'APPROVED' })}>Approve</Button>
      <Button size="xs" color="red" variant="light" onClick={() => onDecide({ record, status: 'REJECTED' })}>Reject</Button>
    </Group>
  );
}

function DecisionDialog({ decision, onClose, onDone }: { decision: Decision; onClose: () => void; onDone: () => void }) {
  const [comment, setComment] = useState('');
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const verb = decision.status === 'APPROVED' ? 'Approve' : 'Reject';
  async function decide() {
    setBusy(true);
    setFailure(undefined);
    const path = { ...APPROVALS, record_id: decision.record.id };
    try {
      // The decision first: a comment on a request someone else decided meanwhile would mislead.
      await ok(api.POST('/adaptors/{id}/actions/{action_id}/records/{record_id}', { params: { path }, body: { key: 'status', value: decision.status } }));
      if (comment.trim()) await ok(api.POST('/adaptors/{id}/actions/{action_id}/records/{record_id}', { params: { path }, body: { key: 'notes', value: comment.trim() } }));
      notifications.show({ color: 'green', message: `${decision.status === 'APPROVED' ? 'Approved' : 'Rejected'}` });
      onDone();
    } catch (err) {
      setFailure(messageOf(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title={`${verb} the request of “${decision.record.automation.name}”`}>
      <Stack>
        {failure && <Alert color="red" role="alert">{failure}</Alert>}
        <Textarea label="Comment" description="Kept on the request (optional)" maxLength={2000} autosize minRows={2} value={comment} onChange={(e) => setComment(e.currentTarget.value)} data-autofocus />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>Cancel</Button>
          <Button color={decision.status === 'APPROVED' ? 'green' : 'red'} onClick={decide} loading={busy}>{verb}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
