// Whom a saved segment holds now: the first page of GET /segments/{id}/contacts (a FILTER
// segment is resolved by the API at that moment, so this is the list a plan's tick would take).
import { Alert, Anchor, Loader, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';

const SIZE = 20;

/** `version`: a new value (the segment as read again after a save) reads the members again. */
export function SegmentPreview({ id, version }: { id: string; version: unknown }) {
  const members = useLoad(() => ok(api.GET('/segments/{id}/contacts', { params: { path: { id }, query: { page: 1, size: SIZE } } })), [id, version]);
  const data = members.data;
  if (members.error) return <Alert color="red" title="Cannot load the members">{members.error.message}</Alert>;
  if (!data) return <Loader aria-label="Loading the members" />;
  const total = data.paging.total;
  return (
    <>
      <Text size="sm" data-testid="preview-total">
        {total === 1 ? '1 contact' : `${total} contacts`}
        {total > SIZE ? `, the first ${SIZE} shown` : ''}
      </Text>
      {total > 0 && (
        <Table.ScrollContainer minWidth={360}>
          <Table striped aria-label="Members now">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Code</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.content.map((c) => (
                <Table.Tr key={c.id} data-testid="preview-row">
                  <Table.Td><Anchor size="sm" component={Link} to={`/customers/${c.id}`}>{c.name}</Anchor></Table.Td>
                  <Table.Td>{c.code ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
