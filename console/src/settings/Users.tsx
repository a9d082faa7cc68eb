import { Alert, Anchor, Button, Group, Loader, Modal, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import type { Get } from '../api/types';
import { useLoad } from '../api/useLoad';
import { useSession } from '../auth/useSession';

type User = Get<'/users'>['content'][number];
const PAGE = 25;

/**
 * The organisation's users. The API lists them and lets an admin set their e-mail and names
 * (PUT /users/{id}); making users, passwords, admin rights, scopes and disabling are the admin
 * command line's (README "Administration"), so the page says so instead of offering them.
 */
export function Users() {
  const isAdmin = useSession()?.identity.isAdmin ?? false;
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [searched] = useDebouncedValue(search.trim(), 300);
  useEffect(() => setPage(1), [searched]);
  const users = useLoad(
    () => ok(api.GET('/users', { params: { query: { page, size: PAGE, sort: 'username', order: 'ASC', ...(searched ? { search_value: searched } : {}) } } })),
    [page, searched],
  );
  const [editing, setEditing] = useState<User>();
  return (
    <Stack>
      <Title order={2} size="h3">Users</Title>
      <Text size="sm" c="dimmed">
        New users, passwords, admin rights, scopes and disabling a user are managed with the service's admin command line (<code>npm run admin -- create-user</code>, <code>reset-password</code>,{' '}
        <code>disable-user</code>, <code>revoke-sessions</code>): the API has no operation for them.
      </Text>
      <TextInput label="Search" placeholder="Username, name or e-mail" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={300} />
      {users.error && <Alert color="red" title="Cannot load the users">{users.error.message}</Alert>}
      {!users.data && !users.error && <Loader aria-label="Loading" />}
      {users.data && users.data.content.length === 0 && <Text c="dimmed">No user matches.</Text>}
      {users.data && users.data.content.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Username</Table.Th>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">E-mail</Table.Th>
                <Table.Th scope="col">Departments and roles</Table.Th>
                {isAdmin && <Table.Th scope="col">Edit</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.data.content.map((u) => (
                <Table.Tr key={u.id} data-testid="user-row">
                  <Table.Td>{u.username}</Table.Td>
                  <Table.Td>{u.first_name || u.last_name ? u.name : <Text size="sm" c="dimmed">not set</Text>}</Table.Td>
                  <Table.Td>{u.email ? <Anchor size="sm" href={`mailto:${u.email}`}>{u.email}</Anchor> : <Text size="sm" c="dimmed">not set</Text>}</Table.Td>
                  <Table.Td>{[...u.departments, ...u.user_roles].map((x) => x.name).join(', ') || <Text size="sm" c="dimmed">none</Text>}</Table.Td>
                  {isAdmin && (
                    <Table.Td>
                      <Button size="xs" variant="light" onClick={() => setEditing(u)} aria-label={`Edit ${u.username}`}>Edit</Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {users.data && users.data.paging.total > PAGE && <Pagination total={Math.ceil(users.data.paging.total / PAGE)} value={page} onChange={setPage} aria-label="Pages of users" />}
      {editing && <EditUser user={editing} onClose={() => setEditing(undefined)} onSaved={() => (setEditing(undefined), users.reload())} />}
    </Stack>
  );
}

const FIELDS = ['email', 'first_name', 'last_name'] as const;

function EditUser({ user, onClose, onSaved }: { user: User; onClose: () => void; onSaved: () => void }) {
  const [values, setValues] = useState({ email: user.email ?? '', first_name: user.first_name ?? '', last_name: user.last_name ?? '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function save() {
    setBusy(true);
    setErrors({});
    setFailure(undefined);
    // Empty clears (null), as the API's partial update takes it.
    const body = Object.fromEntries(FIELDS.map((f) => [f, values[f].trim() || null]));
    try {
      await ok(api.PUT('/users/{id}', { params: { path: { id: user.id } }, body }));
      notifications.show({ color: 'green', message: `Saved ${user.username}` });
      onSaved();
    } catch (err) {
      const { field, message } = placeError(err, [...FIELDS]);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
      setBusy(false);
    }
  }
  const field = (f: (typeof FIELDS)[number], label: string, extra: object = {}) => (
    <TextInput label={label} value={values[f]} onChange={(e) => setValues({ ...values, [f]: e.currentTarget.value })} error={errors[f]} {...extra} />
  );
  return (
    <Modal opened onClose={onClose} title={`Edit ${user.username}`}>
      <form onSubmit={(e) => (e.preventDefault(), void save())} noValidate aria-label={`Edit ${user.username}`}>
        <Stack>
          {failure && <Alert color="red" role="alert">{failure}</Alert>}
          {field('first_name', 'First name', { 'data-autofocus': true })}
          {field('last_name', 'Last name')}
          {field('email', 'E-mail', { type: 'email', description: 'Where the reports this user runs are mailed' })}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>Save</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
