// The members of a STATIC segment as edited: contacts picked one by one, removable; saved as the
// segment's whole `contact_ids` (the API replaces the members with what it is given).
import { ActionIcon, Box, Group, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ContactPicker, type PickedContact } from './ContactPicker';

export const memberLabel = (c: { name: string; code: string | null }) => (c.code ? `${c.name} (${c.code})` : c.name);

export function SegmentMembers({ value, onChange, error }: {
  value: PickedContact[];
  onChange: (value: PickedContact[]) => void;
  error?: string;
}) {
  // Each pick empties the box by a fresh picker; the focus stays in it for the next one.
  const [picks, setPicks] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (picks) box.current?.querySelector('input')?.focus();
  }, [picks]);
  function add(c: PickedContact | null) {
    if (!c) return;
    // Picking one twice keeps it once (the API refuses an id listed twice).
    if (!value.some((m) => m.id === c.id)) onChange([...value, c]);
    setPicks((n) => n + 1);
  }
  return (
    <Stack gap="xs">
      <Box ref={box}>
        <ContactPicker key={picks} label="Add a contact" description="Found by name, code, phone or loyalty identifier" value={null} onChange={add} error={error} w="min(100%, 420px)" />
      </Box>
      <Text size="sm" data-testid="member-count">{value.length === 1 ? '1 contact' : `${value.length} contacts`}</Text>
      {value.length > 0 && (
        <Paper withBorder p="xs" maw={520} component="ul" aria-label="Members" style={{ listStyle: 'none', margin: 0 }}>
          {value.map((m) => (
            <Group key={m.id} component="li" justify="space-between" wrap="nowrap" gap="xs" data-testid="member">
              <Text size="sm" truncate>{m.label}</Text>
              <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.label}`} onClick={() => onChange(value.filter((x) => x.id !== m.id))}>×</ActionIcon>
            </Group>
          ))}
        </Paper>
      )}
    </Stack>
  );
}
