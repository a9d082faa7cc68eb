import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { logIn } from '../api/client';
import { session } from './session';
import { useSession } from './useSession';

export function LoginPage() {
  const current = useSession();
  const ended = session.endedBecause();
  const navigate = useNavigate();
  const from = (useLocation().state as { from?: string } | null)?.from ?? '/automations';
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : 'Enter your username'),
      password: (v) => (v ? null : 'Enter your password'),
    },
  });
  if (current) return <Navigate to={from} replace />;

  const submit = form.onSubmit(async ({ username, password }) => {
    setBusy(true);
    setFailure(undefined);
    const failed = await logIn(username.trim(), password);
    setBusy(false);
    if (!failed) return navigate(from, { replace: true });
    // The API names the field when one caused it; otherwise the message is about the pair.
    if (failed.attribute === 'username' || failed.attribute === 'password') form.setFieldError(failed.attribute, failed.message);
    else setFailure(failed.message);
  });

  return (
    <Center mih="100vh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" w={380} maw="100%">
        <form onSubmit={submit} noValidate aria-labelledby="login-title">
          <Stack>
            <div>
              <Title order={1} size="h2" id="login-title">Back-office console</Title>
              <Text c="dimmed" size="sm">Log in with your username and password.</Text>
            </div>
            {!failure && ended && (
              <Alert color="yellow" title="Your session has ended" data-testid="session-ended">
                {ended} Log in again to go on where you were.
              </Alert>
            )}
            {failure && (
              <Alert color="red" role="alert" title="Login failed" data-testid="login-error">
                {failure}
              </Alert>
            )}
            <TextInput label="Username" autoComplete="username" required autoFocus {...form.getInputProps('username')} />
            <PasswordInput label="Password" autoComplete="current-password" required {...form.getInputProps('password')} />
            <Button type="submit" loading={busy}>Log in</Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
