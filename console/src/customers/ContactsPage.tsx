import { Anchor, Badge, Button, Collapse, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import type { Column } from '../components/DataTable';
import { day, epochOfDay, money } from '../components/format';
import { PagedList } from '../components/PagedList';
import type { ContactRow, ContactSearchQuery } from './types';

const PAGE = 20;

/** The exact filters of GET /contacts, as the form shows them (the URL keeps them: back returns to the results). */
const FILTERS = [
  { key: 'code', label: 'Code' },
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'company_name', label: 'Company name' },
  { key: 'email_address', label: 'E-mail address' },
  { key: 'phone_number', label: 'Phone number' },
  { key: 'statutory_number', label: 'Statutory number' },
  { key: 'loyalty_identifier', label: 'Loyalty identifier' },
  { key: 'cim', label: 'Identification medium' },
] as const;
const DATES = [
  { key: 'registered_from', label: 'Registered from', param: 'registered_on_from' },
  { key: 'registered_to', label: 'Registered until', param: 'registered_on_to' },
] as const;
const FIELDS = ['search_value', ...FILTERS.map((f) => f.key), ...DATES.map((d) => d.key)];
const SORTS = [
  { value: 'registered_on', label: 'Registered on' },
  { value: 'contact_name', label: 'Name' },
  { value: 'code', label: 'Code' },
  { value: 'last_name', label: 'Last name' },
  { value: 'company_name', label: 'Company name' },
];
type Sort = NonNullable<ContactSearchQuery['sort']>;

/** The URL's search as the API's query. */
function queryOf(params: URLSearchParams) {
  const text = (k: string) => params.get(k)?.trim() || undefined;
  const query: ContactSearchQuery = { search_value: text('search_value'), financials: true };
  for (const f of FILTERS) query[f.key] = text(f.key);
  for (const d of DATES) query[d.param] = epochOfDay(params.get(d.key) ?? '', d.key === 'registered_to');
  query.sort = SORTS.some((s) => s.value === params.get('sort')) ? (params.get('sort') as Sort) : 'registered_on';
  query.order = params.get('order') === 'ASC' || params.get('order') === 'DESC' ? (params.get('order') as 'ASC' | 'DESC') : query.sort === 'registered_on' ? 'DESC' : 'ASC';
  query.page = Number(params.get('page') ?? 1);
  query.size = PAGE;
  return query;
}

/** Contact search: free text and the exact filters of GET /contacts; a row opens the contact. */
export function ContactsPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Record<string, string>>(() => Object.fromEntries(FIELDS.map((f) => [f, params.get(f) ?? ''])));
  const [more, setMore] = useState(() => FIELDS.slice(1).some((f) => params.get(f)));
  // The URL is the truth: back, forward and the navigation's link refill the form.
  useEffect(() => setDraft(Object.fromEntries(FIELDS.map((f) => [f, params.get(f) ?? '']))), [params.toString()]);
  const found = useLoad(() => ok(api.GET('/contacts', { params: { query: queryOf(params) } })), [params.toString()]);
  const placed = found.error ? placeError(found.error, (a) => (a.startsWith('registered_on_') ? a.replace('registered_on_', 'registered_') : FIELDS.includes(a) ? a : undefined)) : undefined;
  const errorOf = (f: string) => (placed?.field === f ? placed.message : undefined);

  const search = (e: FormEvent) => {
    e.preventDefault();
    const next = new URLSearchParams();
    for (const f of FIELDS) if (draft[f]?.trim()) next.set(f, draft[f].trim());
    for (const k of ['sort', 'order']) if (params.get(k)) next.set(k, params.get(k)!);
    setParams(next);
  };
  const setParam = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) (v === null ? next.delete(k) : next.set(k, v));
    setParams(next);
  };
  const field = (key: string) => ({ value: draft[key] ?? '', onChange: (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [key]: e.currentTarget.value }), error: errorOf(key) });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">Customers</Title>
        <Button component={Link} to="/customers/new">New contact</Button>
      </Group>
      <form onSubmit={search} role="search" aria-label="Contacts">
        <Stack gap="xs">
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label="Search"
              description="Name, company, code, phone or loyalty identifier"
              style={{ flex: '1 1 280px' }}
              {...field('search_value')}
            />
            <Button type="submit">Search</Button>
            <Button variant="subtle" onClick={() => setMore((m) => !m)} aria-expanded={more} aria-controls="contact-filters">
              {more ? 'Fewer filters' : 'More filters'}
            </Button>
          </Group>
          <Collapse expanded={more} id="contact-filters">
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} pt="xs">
              {FILTERS.map((f) => (
                <TextInput key={f.key} label={f.label} {...field(f.key)} />
              ))}
              {DATES.map((d) => (
                <TextInput key={d.key} type="date" label={d.label} {...field(d.key)} />
              ))}
            </SimpleGrid>
          </Collapse>
        </Stack>
      </form>
      <Group gap="sm">
        <Select
          label="Sort by"
          data={SORTS}
          value={params.get('sort') ?? 'registered_on'}
          onChange={(v) => v && setParam({ sort: v, order: null, page: null })}
          allowDeselect={false}
          w={180}
        />
        <Select
          label="Order"
          data={[{ value: 'ASC', label: 'Ascending' }, { value: 'DESC', label: 'Descending' }]}
          value={String(queryOf(params).order)}
          onChange={(v) => v && setParam({ order: v, page: null })}
          allowDeselect={false}
          w={150}
        />
      </Group>
      {!placed?.field && (
        <PagedList
          list={found} what="the contacts" rows={(d) => d.contacts} size={PAGE} page={Number(params.get('page') ?? 1)} onPage={(p) => setParam({ page: String(p) })}
          above={(d) => <Text size="sm" c="dimmed" aria-live="polite" data-testid="contact-total">{d.paging.total === 1 ? '1 contact' : `${d.paging.total} contacts`}</Text>}
          striped highlightOnHover scroll={{ minWidth: 860 }} rowTestId="contact-row" rowKey={(c) => c.id} onRowClick={(c) => navigate(`/customers/${c.id}`)}
          columns={COLUMNS}
        />
      )}
    </Stack>
  );
}

const primary = <T extends { is_primary: boolean }>(items: T[]) => items.find((i) => i.is_primary) ?? items[0];

const COLUMNS: Column<ContactRow>[] = [
  // The name is the link (keyboard, screen readers); a click anywhere on the row does the same.
  { header: 'Name', cell: (c) => <Anchor component={Link} to={`/customers/${c.id}`} onClick={(e) => e.stopPropagation()}>{c.contact_name}</Anchor> },
  { header: 'Code', cell: (c) => c.code ?? '—' },
  { header: 'Type', cell: (c) => <Badge variant="light" color={c.contact_type === 'PERSON' ? 'blue' : 'grape'}>{c.contact_type}</Badge> },
  { header: 'E-mail', cell: (c) => c.email_address ?? '—' },
  { header: 'Registered on', cell: (c) => day(c.registered_on) },
  { header: 'Country', cell: (c) => primary(c.addresses)?.country ?? '—' },
  { header: 'Wallet balance', cell: ({ financials }) => (financials?.wallet ? money(financials.wallet.balance, financials.wallet.wallet_currency_code) : '—') },
];
