import { Anchor, Badge, Button, Group, Modal, Select, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import type { Communication } from './types';
import { Empty, Facts, Loading, Pages } from './ui';

const PAGE = 20;
const COLOURS = { PENDING: 'yellow', SENT: 'green', FAILED: 'red' } as const;

/** GET /communications of the contact: what was sent (or not, and why), read in a dialog. */
export function CommunicationsTab({ contactId }: { contactId: string }) {
  const [page, setPage] = useState(1);
  const [channel, setChannel] = useState<'EMAIL' | 'SMS' | 'INAPP' | null>(null);
  const [reading, setReading] = useState<Communication>();
  const list = useLoad(
    () => ok(api.GET('/communications', { params: { query: { contact_id: contactId, page, size: PAGE, sort: 'created_on', order: 'DESC', ...(channel ? { channel } : {}) } } })),
    [contactId, page, channel],
  );
  return (
    <Stack>
      <Select label="Channel" data={['EMAIL', 'SMS', 'INAPP']} value={channel} onChange={(v) => (setChannel(v as typeof channel), setPage(1))} clearable placeholder="Any" w={160} />
      <Loading loaded={list} what="the communications">
        {(data) => (
          <>
            {data.content.length === 0 ? <Empty>No communication.</Empty> : (
              <Table.ScrollContainer minWidth={820}>
                <Table striped aria-label="Communications">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Created</Table.Th>
                      <Table.Th scope="col">Subject or name</Table.Th>
                      <Table.Th scope="col">Channel</Table.Th>
                      <Table.Th scope="col">State</Table.Th>
                      <Table.Th scope="col">To</Table.Th>
                      <Table.Th scope="col">Sent</Table.Th>
                      <Table.Th scope="col">Viewed</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.content.map((c) => (
                      <Table.Tr key={c.id} data-testid="communication-row">
                        <Table.Td>{when(c.created_on)}</Table.Td>
                        <Table.Td>
                          <Anchor component="button" type="button" size="sm" onClick={() => setReading(c)}>{c.subject ?? c.name}</Anchor>
                        </Table.Td>
                        <Table.Td>{c.channel}</Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={COLOURS[c.life_cycle_state]}>{c.life_cycle_state}</Badge>
                          {c.failure_reason && <Text size="xs" c="red">{c.failure_reason}</Text>}
                        </Table.Td>
                        <Table.Td>{c.recipient ?? '—'}</Table.Td>
                        <Table.Td>{when(c.sent_on)}</Table.Td>
                        <Table.Td>{c.is_viewed ? when(c.viewed_on) : 'No'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Pages total={data.paging.total} size={PAGE} page={page} onChange={setPage} label="Pages of communications" />
          </>
        )}
      </Loading>
      {reading && (
        <Modal opened onClose={() => setReading(undefined)} title={reading.subject ?? reading.name} size="lg">
          <Stack>
            <Facts label="Communication" rows={[['From', reading.sender], ['To', reading.recipient], ['Language', reading.language], ['Clicked', reading.clicked_on ? when(reading.clicked_on) : 'No']]} />
            {/* The plain-text content, as text: nothing of it is interpreted as HTML. */}
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="communication-content">{reading.content}</Text>
            <Group justify="flex-end"><Button variant="default" onClick={() => setReading(undefined)}>Close</Button></Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}
