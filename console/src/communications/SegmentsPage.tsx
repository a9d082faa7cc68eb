import { Anchor, Button, Group, Table, Text, TextInput } from '@mantine/core';
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
      <PagedList list={list} what="the segments" empty={searched ? 'No segment matches.' : 'No segment yet: a plan is sent to the contacts of its segments.'} size={PAGE} page={page} onPage={setPage}>
        {(segments) => (
          <Table.ScrollContainer minWidth={640}>
            <Table striped highlightOnHover aria-label="Segments">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Name</Table.Th>
                  <Table.Th scope="col">Code</Table.Th>
                  <Table.Th scope="col">Type</Table.Th>
                  <Table.Th scope="col">Members</Table.Th>
                  <Table.Th scope="col">Changed</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {segments.map((s) => (
                  <Table.Tr key={s.id} data-testid="segment-row">
                    <Table.Td><Anchor size="sm" component={Link} to={`/communications/segments/${s.id}`}>{s.name}</Anchor></Table.Td>
                    <Table.Td>{s.code ?? '—'}</Table.Td>
                    <Table.Td>{s.type}</Table.Td>
                    <Table.Td>{s.contact_count === null ? <Text span size="sm" c="dimmed">resolved when read</Text> : s.contact_count}</Table.Td>
                    <Table.Td>{when(s.updated_on)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
    </Section>
  );
}
