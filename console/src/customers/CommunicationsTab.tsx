import { Anchor, Badge, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { Communication } from './types';
import { Facts } from './ui';

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
      <PagedList
        list={list} what="the communications" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage} compact
        empty="No communication."
        aria-label="Communications" striped scroll={{ minWidth: 820 }} rowTestId="communication-row" rowKey={(c) => c.id}
        columns={[
          { header: 'Created', cell: (c) => when(c.created_on) },
          { header: 'Subject or name', cell: (c) => <Anchor component="button" type="button" size="sm" onClick={() => setReading(c)}>{c.subject ?? c.name}</Anchor> },
          { header: 'Channel', cell: (c) => c.channel },
          {
            header: 'State',
            cell: (c) => (
              <>
                <Badge variant="light" color={COLOURS[c.life_cycle_state]}>{c.life_cycle_state}</Badge>
                {c.failure_reason && <Text size="xs" c="red">{c.failure_reason}</Text>}
              </>
            ),
          },
          { header: 'To', cell: (c) => c.recipient ?? '—' },
          { header: 'Sent', cell: (c) => when(c.sent_on) },
          { header: 'Viewed', cell: (c) => (c.is_viewed ? when(c.viewed_on) : 'No') },
        ]}
      />
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
