import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { messageOf } from '../api/errors';

/** Asks before deleting `name`, says what follows, and shows the API's refusal in the dialog. */
export function DeleteDialog({ name, consequence, remove, onClose, onDeleted }: {
  name: string;
  consequence: string;
  remove: () => Promise<unknown>;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      await remove();
      notifications.show({ message: `Deleted “${name}”` });
      onDeleted();
    } catch (err) {
      setFailure(messageOf(err));
      setBusy(false);
    }
  }
  return (
    <Modal opened onClose={onClose} title={`Delete “${name}”?`}>
      <Stack>
        {failure && <Alert color="red" role="alert">{failure}</Alert>}
        <Text size="sm">{consequence}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} data-autofocus>Keep it</Button>
          <Button color="red" onClick={confirm} loading={busy}>Delete</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
