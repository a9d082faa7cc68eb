import { Anchor, Button, Group, Text, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList, useSearchedPages } from '../components/PagedList';
import { Section } from './Section';

const PAGE = 25;

/** The organisation's segments by name: a STATIC one's size; a FILTER one has none until read. */
export function SegmentsPage() {
  const { page, setPage, search, setSearch, searched } = useSearchedPages();
  const list = useLoad(
    () => ok(api.GET('/segments', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC', ...(searched ? { name: searched } : {}) } } })),
    [page, searched],
  );
  return (
    <Section>
      <Group justify="space-between" align="flex-end">
        <TextInput label="Search" placeholder="Part of the name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={300} maw="100%" />
        <Button component={Link} to="/communications/segments/new">New segment</Button>
      </Group>
      <PagedList
        list={list} what="the segments" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty={searched ? 'No segment matches.' : 'No segment yet: a plan is sent to the contacts of its segments.'}
        aria-label="Segments" striped highlightOnHover scroll={{ minWidth: 640 }} rowTestId="segment-row" rowKey={(s) => s.id}
        columns={[
          { header: 'Name', cell: (s) => <Anchor size="sm" component={Link} to={`/communications/segments/${s.id}`}>{s.name}</Anchor> },
          { header: 'Code', cell: (s) => s.code ?? '—' },
          { header: 'Type', cell: (s) => s.type },
          { header: 'Members', cell: (s) => (s.contact_count === null ? <Text span size="sm" c="dimmed">resolved when read</Text> : s.contact_count) },
          { header: 'Changed', cell: (s) => when(s.updated_on) },
        ]}
      />
    </Section>
  );
}
