import { Anchor, Button, Group, Table, TextInput } from '@mantine/core';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { when } from '../components/format';
import { PagedList, useSearchedPages } from '../components/PagedList';
import { languageName } from '../customers/languages';
import { Section } from './Section';

const PAGE = 25;

/** The organisation's templates by name, with their languages; a search by name. */
export function TemplatesPage() {
  const { page, setPage, search, setSearch, searched } = useSearchedPages();
  const list = useLoad(
    () => ok(api.GET('/communication_templates', { params: { query: { page, size: PAGE, sort: 'name', order: 'ASC', ...(searched ? { name: searched } : {}) } } })),
    [page, searched],
  );
  return (
    <Section>
      <Group justify="space-between" align="flex-end">
        <TextInput label="Search" placeholder="Part of the name" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={300} />
        <Button component={Link} to="/communications/templates/new">New template</Button>
      </Group>
      <PagedList list={list} what="the templates" empty={searched ? 'No template matches.' : 'No template yet.'} size={PAGE} page={page} onPage={setPage}>
        {(templates) => (
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
                {templates.map((t) => (
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
      </PagedList>
    </Section>
  );
}
