import { Alert, Anchor, Button, Group, Loader, Pagination, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { languageName } from '../customers/languages';
import { Section } from './Section';

const PAGE = 25;

/** The organisation's templates by name, with their languages; a search by name. */
export function TemplatesPage() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  useEffect(() => setPage(1), [searched]);
  const list = useLoad(
    () => ok(api.GET('/communication_templates', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC', ...(searched ? { name: searched } : {}) } } })),
    [page, searched],
  );
  const data = list.data;
  return (
    <Section>
      <Group justify="space-between" align="flex-end">
        <TextInput label="Search" placeholder="Part of the name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={300} />
        <Button component={Link} to="/communications/templates/new">New template</Button>
      </Group>
      {list.error && <Alert color="red" title="Cannot load the templates">{list.error.message}</Alert>}
      {!data && !list.error && <Loader aria-label="Loading" />}
      {data && data.content.length === 0 && <Text c="dimmed">{searched ? 'No template matches.' : 'No template yet.'}</Text>}
      {data && data.content.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label="Templates">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Code</Table.Th>
                <Table.Th scope="col">Languages</Table.Th>
                <Table.Th scope="col">Changed</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.content.map((t) => (
                <Table.Tr key={t.id} data-testid="template-row">
                  <Table.Td><Anchor size="sm" component={Link} to={`/communications/templates/${t.id}`}>{t.name}</Anchor></Table.Td>
                  <Table.Td>{t.code ?? '—'}</Table.Td>
                  <Table.Td>{t.contents.map((c) => languageName(c.language) ?? c.language).join(', ')}</Table.Td>
                  <Table.Td>{when(t.updated_on)}</Table.Td>
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
