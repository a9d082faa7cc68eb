import { Alert, Badge, Button, Group, Loader, Modal, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../api/client';
import { messageOf, ok } from '../api/errors';
import type { ActionRecord } from '../api/types';
import { useLoad } from '../api/useLoad';
import { STATUS_COLOURS } from './runs';
import { when } from '../components/format';

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
      {inbox.error && <Alert color="red" title="Cannot load the approvals">{inbox.error.message}</Alert>}
      {!inbox.data && !inbox.error && <Loader aria-label="Loading" />}
      {inbox.data && (
        <>
          <Title order={2} size="h3">Waiting for a decision</Title>
          {inbox.data.pending.length === 0 ? <Text c="dimmed">Nothing waits for a decision.</Text> : <Requests records={inbox.data.pending} onDecide={setDeciding} />}
          <Title order={2} size="h3">Recently decided</Title>
          {inbox.data.decided.length === 0 ? <Text c="dimmed">None yet.</Text> : <Requests records={inbox.data.decided} />}
        </>
      )}
      {deciding && <DecisionDialog decision={deciding} onClose={() => setDeciding(undefined)} onDone={() => (setDeciding(undefined), inbox.reload())} />}
    </Stack>
  );
}

function Requests({ records, onDecide }: { records: ActionRecord[]; onDecide?: (d: Decision) => void }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Requested</Table.Th>
            <Table.Th scope="col">Automation</Table.Th>
            <Table.Th scope="col">About</Table.Th>
            <Table.Th scope="col">{onDecide ? 'Decide' : 'Decision'}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((r) => (
            <Table.Tr key={r.id} data-testid="approval-row">
              <Table.Td>{when(r.created_on)}</Table.Td>
              <Table.Td>{r.automation.name}</Table.Td>
              <Table.Td>
                {attribute(r, 'approval_entity_type') ?? r.entity.type} {r.entity.reference ?? r.entity.id}
                {attribute(r, 'notes') && <Text size="xs" c="dimmed">Comment: {attribute(r, 'notes')}</Text>}
              </Table.Td>
              <Table.Td>
                {onDecide ? (
                  <Group gap="xs">
                    <Button size="xs" color="green" onClick={() => onDecide({ record: r, status: 'APPROVED' })}>Approve</Button>
                    <Button size="xs" color="red" variant="light" onClick={() => onDecide({ record: r, status: 'REJECTED' })}>Reject</Button>
                  </Group>
                ) : (
                  <Badge color={STATUS_COLOURS[r.status]}>{r.status}{r.reason ? `: ${r.reason}` : ''}</Badge>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
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
