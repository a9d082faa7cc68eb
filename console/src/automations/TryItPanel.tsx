import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { placeError } from '../api/errors';
import { ContactPicker, type PickedContact } from '../communications/ContactPicker';
import type { Catalogue } from './catalogue';
import { tryRecord, type RunVerdict } from './simulations';
import { VerdictView } from './VerdictView';

/**
 * "Try it": what the automation, as saved now, would do for one record (RECORD mode), active or
 * not: nothing is performed. A contact is picked by name; the other entities' records have no
 * picker in the console yet, so their id is typed (the API's 400 names `entity_id` when unknown).
 */
export function TryItPanel({ automationId, entity, catalogue }: { automationId: string; entity: string; catalogue: Catalogue }) {
  const [contact, setContact] = useState<PickedContact | null>(null);
  const [typedId, setTypedId] = useState('');
  const [verdict, setVerdict] = useState<RunVerdict>();
  const [error, setError] = useState<{ field?: string; message: string }>();
  const [trying, setTrying] = useState(false);
  const isContact = entity === 'CONTACTS';
  const entityId = isContact ? contact?.id : typedId.trim();

  async function run() {
    if (!entityId) return;
    setTrying(true);
    setError(undefined);
    try {
      setVerdict(await tryRecord(automationId, entityId));
    } catch (err) {
      setVerdict(undefined);
      setError(placeError(err, ['entity_id']));
    } finally {
      setTrying(false);
    }
  }

  const fieldError = error?.field === 'entity_id' ? error.message : undefined;
  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Judged with the actions as saved (save first to try a change). Nothing is sent or written: the webhook request and the message are shown as they would be.
      </Text>
      <Group align="flex-end">
        {isContact ? (
          <ContactPicker label="Customer" value={contact} onChange={setContact} error={fieldError} w={360} />
        ) : (
          <TextInput label="Record id" description="The id of the record the event is about" value={typedId} onChange={(e) => setTypedId(e.currentTarget.value)} error={fieldError} w={360} />
        )}
        <Button onClick={run} loading={trying} disabled={!entityId}>Try it</Button>
      </Group>
      {error && !fieldError && <Alert color="red" role="alert" title="Not tried">{error.message}</Alert>}
      {verdict && <VerdictView verdict={verdict} catalogue={catalogue} entity={entity} />}
    </Stack>
  );
}
