import { Anchor, Badge, Button, Group, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../api/client';
import { ok } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { useSession } from '../auth/useSession';
import { ShownOnce } from '../components/ShownOnce';
import { when } from '../components/format';
import { PagedList, useSearchedPages } from '../components/PagedList';
import { EditUserDialog, type User } from './EditUserDialog';
import { NewUserDialog } from './NewUserDialog';

const PAGE = 25;

/**
 * The organisation's users with their rights and state. Admins create users and change their
 * rights, state, password and sessions (the API allows user management to admin users only);
 * everyone else sees the list.
 */
export function Users() {
  const identity = useSession()?.identity;
  const isAdmin = identity?.isAdmin ?? false;
  const { page, setPage, search, setSearch, searched } = useSearchedPages();
  const users = useLoad(
    () => ok(api.GET('/users', { params: { query: { page, size: PAGE, sort: 'username', order: 'ASC', ...(searched ? { search_value: searched } : {}) } } })),
    [page, searched],
  );
  const [creating, setCreating] = useState(false);
  const [editingId, setEditingId] = useState<string>();
  // Follows the reloaded list, so the dialog shows a state an action just changed.
  const editing = users.data?.content.find((u) => u.id === editingId);
  const [shown, setShown] = useState<{ username: string; password: string }>();

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2} size="h3">Users</Title>
        {isAdmin && <Button onClick={() => setCreating(true)}>New user</Button>}
      </Group>
      <Text size="sm" c="dimmed">
        {isAdmin
          ? 'People who log in to this console and the API. A user gets at most the scopes you hold; a change of rights ends their sessions.'
          : 'People who log in to this console and the API. Only admin users manage them.'}
      </Text>
      <TextInput label="Search" placeholder="Username, name or e-mail" value={search} onChange={(e) => setSearch(e.currentTarget.value)} w={300} maw="100%" />
      <PagedList
        list={users} what="the users" rows={(d) => d.content} size={PAGE} page={page} onPage={setPage}
        empty="No user matches."
        aria-label="Users" striped scroll={{ minWidth: 860 }} rowTestId="user-row" rowKey={(u) => u.id}
        columns={[
          { header: 'Username', cell: (u) => u.username },
          { header: 'Name', cell: (u) => (u.first_name || u.last_name ? u.name : <Text size="sm" c="dimmed">not set</Text>) },
          { header: 'E-mail', cell: (u) => (u.email ? <Anchor size="sm" href={`mailto:${u.email}`}>{u.email}</Anchor> : <Text size="sm" c="dimmed">not set</Text>) },
          { header: 'Access', cell: (u) => <Access user={u} /> },
          { header: 'Departments and roles', cell: (u) => [...u.departments, ...u.user_roles].map((x) => x.name).join(', ') || <Text size="sm" c="dimmed">none</Text> },
          ...(isAdmin
            ? [{ header: <VisuallyHidden>Actions</VisuallyHidden>, cell: (u: User) => <Button size="xs" variant="light" onClick={() => setEditingId(u.id)} aria-label={`Edit ${u.username}`}>Edit</Button> }]
            : []),
        ]}
      />
      {creating && (
        <NewUserDialog
          onClose={() => setCreating(false)}
          onCreated={(made) => {
            setCreating(false);
            users.reload();
            if (made.generatedPassword) setShown({ username: made.username, password: made.generatedPassword });
            else notifications.show({ color: 'green', message: `Created ${made.username}` });
          }}
        />
      )}
      {editing && (
        <EditUserDialog
          key={editing.id}
          user={editing}
          isSelf={editing.id === identity?.userId}
          onClose={() => setEditingId(undefined)}
          onChanged={users.reload}
          onPasswordGenerated={(password) => {
            setEditingId(undefined);
            setShown({ username: editing.username, password });
          }}
        />
      )}
      {shown && (
        <ShownOnce title={`Password of ${shown.username}`} label="Password" secret={shown.password} onClose={() => setShown(undefined)}>
          <Text size="sm">Hand it over to {shown.username} in a safe way; they log in with it at this console's address.</Text>
        </ShownOnce>
      )}
    </Stack>
  );
}

/** Admin and disabled badges, then the scopes ("All" for `*`). */
function Access({ user }: { user: User }) {
  return (
    <Group gap={4}>
      {user.is_admin && <Badge color="violet" variant="light" size="sm" tt="none">Admin</Badge>}
      {user.is_disabled && (
        <Badge color="gray" variant="filled" size="sm" tt="none" title={user.disabled_on === null ? undefined : `Disabled ${when(user.disabled_on)}`}>Disabled</Badge>
      )}
      {user.scopes.map((s) => <Badge key={s} variant="outline" size="sm" tt="none">{s === '*' ? 'All (*)' : s}</Badge>)}
    </Group>
  );
}
