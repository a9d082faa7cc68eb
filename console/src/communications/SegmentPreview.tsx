// Whom a saved segment holds now: the first page of GET /segments/{id}/contacts (a FILTER
// segment is resolved by the API at that moment, so this is the list a plan's tick would take).
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { DataTable } from '../components/DataTable';
import { Loading } from '../components/Loading';

const SIZE = 20;

/** `version`: a new value (the segment as read again after a save) reads the members again. */
export function SegmentPreview({ id, version }: { id: string; version: unknown }) {
  const members = useLoad(() => ok(api.GET('/segments/{id}/contacts', { params: { path: { id }, query: { page: 1, size: SIZE } } })), [id, version]);
  return (
    <Loading loaded={members} what="the members">
      {({ content, paging: { total } }) => (
        <>
          <Text size="sm" data-testid="preview-total">
            {total === 1 ? '1 contact' : `${total} contacts`}
            {total > SIZE ? `, the first ${SIZE} shown` : ''}
          </Text>
          <DataTable
            rows={content}
            aria-label="Members now" striped scroll={{ minWidth: 360 }} rowTestId="preview-row" rowKey={(c) => c.id}
            columns={[
              { header: 'Name', cell: (c) => <Anchor size="sm" component={Link} to={`/customers/${c.id}`}>{c.name}</Anchor> },
              { header: 'Code', cell: (c) => c.code ?? '—' },
            ]}
          />
        </>
      )}
    </Loading>
  );
}
