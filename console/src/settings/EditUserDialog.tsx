import { Alert, Button, Divider, Group, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import type { Get } from '../api/types';
import { NO_PASSWORD, PasswordFields, passwordOf, type PasswordChoice } from './PasswordFields';
import { choiceOf, grantsOf, type Choice } from './scopes';
import { AccessFields } from './AccessFields';

export type User = Get<'/users'>['content'][number];
const PROFILE = ['email', 'first_name', 'last_name'] as const;
const FIELDS = [...PROFILE, 'is_admin', 'scopes', 'is_disabled'];

/** What the dialog shows: the form, or one account action asking first. */
type View = 'form' | 'disable' | 'enable' | 'sessions' | 'password';

const sameGrants = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((g) => b.includes(g));

/**
 * An admin's view of a user: names and e-mail, admin rights and scopes (PUT /users/{id}), and the
 * account actions, each asked first: disable or enable, a new password, end the sessions.
 */
export function EditUserDialog({ user, isSelf, onClose, onChanged, onPasswordGenerated }: {
  user: User;
  isSelf: boolean;
  onClose: () => void;
  onChanged: () => void;
  onPasswordGenerated: (password: string) => void;
}) {
  const [view, setView] = useState<View>('form');
  const [values, setValues] = useState({ email: user.email ?? '', first_name: user.first_name ?? '', last_name: user.last_name ?? '' });
  const [isAdmin, setIsAdmin] = useState(user.is_admin);
  const [choice, setChoice] = useState<Choice>(() => choiceOf(user.scopes));
  const [password, setPassword] = useState<PasswordChoice>(NO_PASSWORD);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  const show = (next: View) => (setView(next), setErrors({}), setFailure(undefined));
  /** Runs an API call; a refusal goes to its field, else above. */
  async function attempt(call: () => Promise<unknown>, done: () => void) {
    setBusy(true);
    setErrors({});
    setFailure(undefined);
    try {
      await call();
      done();
    } catch (err) {
      const { field, message } = placeError(err, [...FIELDS, 'password']);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setBusy(false);
    }
  }
  const id = { params: { path: { id: user.id } } };

  function save() {
    const scopes = grantsOf(choice);
    if (scopes.length === 0) return setErrors({ scopes: 'Choose at least one scope, or all' });
    // Empty clears (null); rights are sent only when they change, as a change ends the user's sessions.
    const body = {
      ...Object.fromEntries(PROFILE.map((f) => [f, values[f].trim() || null])),
      ...(isAdmin !== user.is_admin ? { is_admin: isAdmin } : {}),
      ...(sameGrants(scopes, user.scopes) ? {} : { scopes }),
    };
    void attempt(() => ok(api.PUT('/users/{id}', { ...id, body })), () => {
      notifications.show({ color: 'green', message: `Saved ${user.username}` });
      onChanged();
      onClose();
    });
  }
  const act = (what: string, call: () => Promise<unknown>) =>
    void attempt(call, () => {
      notifications.show({ color: 'green', message: `${what}: ${user.username}` });
      onChanged();
      show('form');
    });
  function setNewPassword() {
    const chosen = passwordOf(password);
    if ('field' in chosen) return setErrors({ [chosen.field]: chosen.message });
    void attempt(() => ok(api.POST('/users/{id}/reset_password', { ...id, body: { password: chosen.password } })), () => {
      onChanged();
      if (chosen.generated) return onPasswordGenerated(chosen.password);
      notifications.show({ color: 'green', message: `New password set: ${user.username}` });
      show('form');
    });
  }

  const titles: Record<View, string> = {
    form: `Edit ${user.username}`,
    disable: `Disable ${user.username}?`,
    enable: `Enable ${user.username}?`,
    sessions: `End the sessions of ${user.username}?`,
    password: `New password for ${user.username}`,
  };
  const text = (f: (typeof PROFILE)[number], label: string, extra: object = {}) => (
    <TextInput label={label} value={values[f]} onChange={(e) => setValues({ ...values, [f]: e.currentTarget.value })} error={errors[f]} {...extra} />
  );
  const back = <Button variant="default" onClick={() => show('form')} data-autofocus>Cancel</Button>;
  const problem = failure && <Alert color="red" role="alert">{failure}</Alert>;

  return (
    <Modal opened onClose={onClose} title={titles[view]} size={view === 'form' ? 'xl' : 'md'}>
      {view === 'form' && (
        <Stack>
          <form onSubmit={(e) => (e.preventDefault(), save())} noValidate aria-label={`Edit ${user.username}`}>
            <Stack>
              {problem}
              {isSelf && (
                <Alert color="gray" title="This is you">
                  A change of your own admin rights or scopes, a new password or ending your sessions logs you out. You cannot take your own admin rights or disable yourself: another
                  admin can.
                </Alert>
              )}
              <Group grow align="flex-start">
                {text('first_name', 'First name', { 'data-autofocus': true })}
                {text('last_name', 'Last name')}
              </Group>
              {text('email', 'E-mail', { type: 'email', description: 'Where the reports this user runs are mailed' })}
              <AccessFields
                isAdmin={isAdmin}
                onAdminChange={setIsAdmin}
                choice={choice}
                onChoiceChange={setChoice}
                errors={errors}
                onErrorsChange={setErrors}
              />
              <Text size="xs" c="dimmed">A change of admin rights or scopes ends the user's sessions: they log in again with the new ones.</Text>
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>Cancel</Button>
                <Button type="submit" loading={busy}>Save</Button>
              </Group>
            </Stack>
          </form>
          <Divider />
          <section aria-labelledby="user-account-title">
            <Title order={3} size="h5" id="user-account-title" mb="xs">Account</Title>
            <Group>
              {user.is_disabled ? (
                <Button variant="light" onClick={() => show('enable')}>Enable…</Button>
              ) : (
                <Button variant="light" color="red" onClick={() => show('disable')}>Disable…</Button>
              )}
              <Button variant="light" onClick={() => show('password')}>Reset password…</Button>
              <Button variant="light" onClick={() => show('sessions')}>End sessions…</Button>
            </Group>
          </section>
        </Stack>
      )}
      {view === 'disable' && (
        <Stack>
          {problem}
          {errors.is_disabled && <Alert color="red" role="alert">{errors.is_disabled}</Alert>}
          <Text size="sm">{user.username} can no longer log in, and every session they have ends now (on other replicas of the service within a few seconds). An admin can enable them again.</Text>
          <Group justify="flex-end">
            {back}
            <Button color="red" loading={busy} onClick={() => act('Disabled', () => ok(api.PUT('/users/{id}', { ...id, body: { is_disabled: true } })))}>Disable</Button>
          </Group>
        </Stack>
      )}
      {view === 'enable' && (
        <Stack>
          {problem}
          <Text size="sm">{user.username} may log in again with their password. Sessions ended when they were disabled stay ended.</Text>
          <Group justify="flex-end">
            {back}
            <Button loading={busy} onClick={() => act('Enabled', () => ok(api.PUT('/users/{id}', { ...id, body: { is_disabled: false } })))}>Enable</Button>
          </Group>
        </Stack>
      )}
      {view === 'sessions' && (
        <Stack>
          {problem}
          <Text size="sm">Every session of {user.username} ends now: the console and other clients they use ask them to log in again.</Text>
          <Group justify="flex-end">
            {back}
            <Button color="red" loading={busy} onClick={() => act('Sessions ended', () => ok(api.POST('/users/{id}/revoke_sessions', id)))}>End sessions</Button>
          </Group>
        </Stack>
      )}
      {view === 'password' && (
        <form onSubmit={(e) => (e.preventDefault(), setNewPassword())} noValidate aria-label={`New password for ${user.username}`}>
          <Stack>
            {problem}
            <Text size="sm">The old password stops working, every session of {user.username} ends, and a sign-in lock on the username is lifted.</Text>
            <PasswordFields value={password} onChange={setPassword} errors={errors} />
            <Group justify="flex-end">
              {back}
              <Button type="submit" loading={busy}>Set the password</Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
