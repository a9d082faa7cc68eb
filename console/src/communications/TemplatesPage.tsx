import { Anchor, Button, Group, TextInput } from '@mantine/core';
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
      <PagedList
        list={list} what="the templates" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty={searched ? 'No template matches.' : 'No template yet.'}
        aria-label="Templates" striped highlightOnHover scroll={{ minWidth: 640 }} rowTestId="template-row" rowKey={(t) => t.id}
        columns={[
          { header: 'Name', cell: (t) => <Anchor size="sm" component={Link} to={`/communications/templates/${t.id}`}>{t.name}</Anchor> },
          { header: 'Code', cell: (t) => t.code ?? '—' },
          { header: 'Languages', cell: (t) => t.contents.map((c) => languageName(c.language) ?? c.language).join(', ') },
          { header: 'Changed', cell: (t) => when(t.updated_on) },
        ]}
      />
    </Section>
  );
}
