import { Alert, Anchor, Button, Group, Loader, Pagination, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { Section } from './Section';

const PAGE = 25;

/** The organisation's segments by name: a STATIC one's size; a FILTER one has none until read. */
export function SegmentsPage() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  useEffect(() => setPage(1), [searched]);
  const list = useLoad(
    () => ok(api.GET('/segments', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC', ...(searched ? { name: searched } : {}) } } })),
    [page, searched],
  );
  const data = list.data;
  return (
    <Section>
      <Group justify="space-between" align="flex-end">
        <TextInput label="Search" placeholder="Part of the name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={300} maw="100%" />
        <Button component={Link} to="/communications/segments/new">New segment</Button>
      </Group>
      {list.error && <Alert color="red" title="Cannot load the segments">{list.error.message}</Alert>}
      {!data && !list.error && <Loader aria-label="Loading" />}
      {data && data.content.length === 0 && <Text c="dimmed">{searched ? 'No segment matches.' : 'No segment yet: a plan is sent to the contacts of its segments.'}</Text>}
      {data && data.content.length > 0 && (
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
              {data.content.map((s) => (
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
      {data && data.paging.total > PAGE && <Pagination total={Math.ceil(data.paging.total / PAGE)} value={page} onChange={setPage} aria-label="Pages" />}
    </Section>
  );
}
