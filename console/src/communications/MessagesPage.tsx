import { Anchor, Badge, Button, Group, Select, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList } from '../components/PagedList';
import { ContactPicker, type PickedContact } from './ContactPicker';
import { Section } from './Section';
import { CHANNELS, MESSAGE_STATES, STATE_COLOURS, type Channel, type MessageQuery, type MessageState } from './types';

const PAGE = 20;
const ARCHIVED = [
  { value: 'false', label: 'Not archived' },
  { value: 'true', label: 'Archived' },
];

/**
 * Every communication (GET /communications, newest first) with its delivery state; filters in
 * the address, so returning from a message keeps them. While a row is PENDING the list reads
 * itself again every 2 s, so a send's outcome appears without a reload.
 */
export function MessagesPage() {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? '1') || 1;
  const state = params.get('state') as MessageState | null;
  const channel = params.get('channel') as Channel | null;
  const archived = params.get('archived');
  const contactId = params.get('contact_id');
  const [contact, setContact] = useState<PickedContact | null>(null);

  const set = (name: string, value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    if (name !== 'page') next.delete('page');
    setParams(next);
  };

  // A contact named by the address alone (a link, a reload): its name for the picker.
  useEffect(() => {
    if (!contactId || contact?.id === contactId) return;
    ok(api.GET('/contacts/{id}', { params: { path: { id: contactId } } })).then(
      (c) => setContact({ id: c.id, label: c.code ? `${c.contact_name} (${c.code})` : c.contact_name }),
      () => setContact({ id: contactId, label: contactId }),
    );
  }, [contactId]);

  const query: MessageQuery = {
    page, size: PAGE, sort: 'created_on', order: 'DESC',
    ...(state ? { life_cycle_state: state } : {}),
    ...(channel ? { channel } : {}),
    ...(archived ? { is_archived: archived as 'true' | 'false' } : {}),
    ...(contactId ? { contact_id: contactId } : {}),
  };
  const list = useLoad(() => ok(api.GET('/communications', { params: { query } })), [params.toString()]);
  const pending = list.data?.content.some((c) => c.life_cycle_state === 'PENDING') ?? false;
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(list.reload, 2000);
    return () => clearInterval(timer);
  }, [pending, list.reload]);

  return (
    <Section>
      <Group align="flex-end" wrap="wrap">
        <ContactPicker label="Contact" value={contactId ? contact : null} onChange={(c) => (setContact(c), set('contact_id', c?.id ?? null))} w={280} />
        <Select label="State" data={MESSAGE_STATES} value={state} onChange={(v) => set('state', v)} clearable placeholder="Any" w={150} />
        <Select label="Channel" data={CHANNELS} value={channel} onChange={(v) => set('channel', v)} clearable placeholder="Any" w={150} />
        <Select label="Archived" data={ARCHIVED} value={archived} onChange={(v) => set('archived', v)} clearable placeholder="Both" w={170} />
        <Button variant="default" onClick={list.reload}>Refresh</Button>
      </Group>
      <PagedList
        list={list} what="the communications" rows={(d) => d.content} size={PAGE} page={page} onPage={(p) => set('page', String(p))}
        empty="No communication matches."
        above={(d) => <Text size="sm" c="dimmed" data-testid="message-total">{d.paging.total === 1 ? '1 communication' : `${d.paging.total} communications`}</Text>}
        aria-label="Communications" striped highlightOnHover scroll={{ minWidth: 900 }} rowTestId="message-row" rowKey={(c) => c.id}
        columns={[
          { header: 'Created', cell: (c) => when(c.created_on) },
          { header: 'Subject', cell: (c) => <Anchor size="sm" component={Link} to={`/communications/messages/${c.id}`}>{c.subject || '(no subject)'}</Anchor> },
          { header: 'Name', cell: (c) => c.name },
          { header: 'Channel', cell: (c) => c.channel },
          {
            header: 'State',
            cell: (c) => (
              <>
                <Badge variant="light" color={STATE_COLOURS[c.life_cycle_state]} data-testid="message-state">{c.life_cycle_state}</Badge>
                {c.is_archived && <Badge variant="outline" color="gray" ml={4}>archived</Badge>}
                {c.failure_reason && <Text size="xs" c="red">{c.failure_reason}</Text>}
              </>
            ),
          },
          { header: 'To', cell: (c) => c.recipient ?? '—', style: { wordBreak: 'break-all' } },
          { header: 'Sent', cell: (c) => when(c.sent_on) },
          { header: 'Viewed', cell: (c) => (c.is_viewed ? when(c.viewed_on) : 'No') },
        ]}
      />
    </Section>
  );
}
