import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A secret the console shows once (a new API key, a new webhook signing secret): in a dialog with a
 * copy button, closed only by saying it is stored. The console keeps it nowhere after that.
 */
export function ShownOnce({ title, label, secret, children, onClose }: { title: string; label: string; secret: string; children?: ReactNode; onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={title} closeOnClickOutside={false} closeOnEscape={false} size="lg">
      <Stack>
        <Alert color="yellow" title="Shown once">
          Copy it now and keep it somewhere safe: the console does not show it again.
        </Alert>
        {children}
        <div>
          <Text size="sm" fw={500} id="shown-once-label">{label}</Text>
          <Code block data-testid="shown-once-secret" aria-labelledby="shown-once-label" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
            {secret}
          </Code>
        </div>
        <Group justify="flex-end">
          <CopyButton value={secret}>
            {({ copied, copy }) => (
              <Button variant="light" color={copied ? 'teal' : 'blue'} onClick={copy}>
                {copied ? 'Copied' : 'Copy to clipboard'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose} data-autofocus>I have stored it</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
