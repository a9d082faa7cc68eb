import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { NO_PASSWORD, PasswordFields, passwordOf, type PasswordChoice } from './PasswordFields';
import { grantsOf, type Choice } from './scopes';
import { AccessFields } from './AccessFields';

const FIELDS = ['username', 'password', 'first_name', 'last_name', 'email', 'is_admin', 'scopes'];

/** Made: the user's name, and the password when the console generated it (shown once). */
export interface NewUser {
  username: string;
  generatedPassword?: string;
}

/** Username, names, e-mail, password (typed twice or generated), admin rights and scopes of a new user (POST /users). */
export function NewUserDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (user: NewUser) => void }) {
  const [values, setValues] = useState({ username: '', first_name: '', last_name: '', email: '' });
  const [password, setPassword] = useState<PasswordChoice>(NO_PASSWORD);
  const [isAdmin, setIsAdmin] = useState(false);
  const [choice, setChoice] = useState<Choice>({ all: false, read: new Set(), write: new Set() });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function create() {
    setErrors({});
    setFailure(undefined);
    const scopes = grantsOf(choice);
    // Left out, the API would give every scope: the console asks for a choice, as for keys.
    if (scopes.length === 0) return setErrors({ scopes: 'Choose at least one scope, or all' });
    const chosen = passwordOf(password);
    if ('field' in chosen) return setErrors({ [chosen.field]: chosen.message });
    setBusy(true);
    try {
      const optional = Object.fromEntries((['first_name', 'last_name', 'email'] as const).map((f) => [f, values[f].trim() || undefined]));
      await ok(api.POST('/users', { body: { username: values.username.trim(), password: chosen.password, is_admin: isAdmin, scopes, ...optional } }));
      onCreated({ username: values.username.trim(), generatedPassword: chosen.generated ? chosen.password : undefined });
    } catch (err) {
      const { field, message } = placeError(err, FIELDS);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
      setBusy(false);
    }
  }

  const text = (f: keyof typeof values, label: string, extra: object = {}) => (
    <TextInput label={label} value={values[f]} onChange={(e) => setValues({ ...values, [f]: e.currentTarget.value })} error={errors[f]} {...extra} />
  );
  return (
    <Modal opened onClose={onClose} title="New user" size="xl">
      <form onSubmit={(e) => (e.preventDefault(), void create())} noValidate aria-label="New user">
        <Stack>
          {failure && <Alert color="red" role="alert" title="Not created">{failure}</Alert>}
          {text('username', 'Username', { required: true, autoComplete: 'off', description: 'What they log in with; unique across the service', 'data-autofocus': true })}
          <Group grow align="flex-start">
            {text('first_name', 'First name')}
            {text('last_name', 'Last name')}
          </Group>
          {text('email', 'E-mail', { type: 'email', description: 'Where the reports this user runs are mailed' })}
          <PasswordFields value={password} onChange={setPassword} errors={errors} />
          <AccessFields
            isAdmin={isAdmin}
            onAdminChange={setIsAdmin}
            choice={choice}
            onChoiceChange={setChoice}
            errors={errors}
            onErrorsChange={setErrors}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>Cancel</Button>
            <Button type="submit" loading={busy}>Create the user</Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
