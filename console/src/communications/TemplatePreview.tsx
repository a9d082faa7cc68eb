import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { languageName } from '../customers/languages';
import { ContactPicker, type PickedContact } from './ContactPicker';
import { HtmlView } from './HtmlView';
import type { RenderedTemplate, Template } from './types';

const FIELDS = ['contact_id', 'language'];

/**
 * The saved template as one contact would get it by e-mail, rendered by the API
 * (POST /communication_templates/{id}/render): nothing is sent or recorded, and the console fills
 * no placeholder itself.
 */
export function TemplatePreview({ template, unsaved }: { template: Template; unsaved: boolean }) {
  const [contact, setContact] = useState<PickedContact | null>(null);
  const [language, setLanguage] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [rendering, setRendering] = useState(false);
  const [rendered, setRendered] = useState<RenderedTemplate>();

  async function render() {
    setErrors({});
    setFailure(undefined);
    if (!contact) return setErrors({ contact_id: 'Choose the contact whose values fill the template' });
    setRendering(true);
    try {
      setRendered(
        await ok(
          api.POST('/communication_templates/{id}/render', {
            params: { path: { id: template.id } },
            body: { contact_id: contact.id, channel: 'EMAIL', ...(language ? { language } : {}) },
          }),
        ),
      );
    } catch (err) {
      setRendered(undefined);
      const { field, message } = placeError(err, FIELDS);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setRendering(false);
    }
  }

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        The saved template as the chosen contact would receive it by e-mail, filled with their values. Nothing is sent.
      </Text>
      {unsaved && <Alert color="yellow">Save your changes first: the preview uses the saved template.</Alert>}
      {failure && <Alert color="red" role="alert" title="No preview">{failure}</Alert>}
      <form onSubmit={(e) => (e.preventDefault(), void render())} noValidate aria-label="Preview for a contact">
        <Group align="flex-start" wrap="wrap">
          <ContactPicker label="Contact" required value={contact} onChange={setContact} error={errors.contact_id} w={300} />
          <Select
            label="Language"
            data={template.contents.map((c) => ({ value: c.language, label: languageName(c.language) ?? c.language }))}
            value={language}
            onChange={setLanguage}
            clearable
            placeholder="The contact's own"
            error={errors.language}
            w={200}
          />
        </Group>
        <Button type="submit" mt="sm" loading={rendering} disabled={unsaved}>Show the preview</Button>
      </form>
      {rendered && (
        <Stack gap={4} data-testid="template-preview">
          <Text size="sm">For {rendered.contact.name ?? rendered.contact.code ?? rendered.contact.id} in {languageName(rendered.language) ?? rendered.language}</Text>
          <Text fw={600} data-testid="preview-subject">{rendered.subject}</Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="preview-content">{rendered.content}</Text>
          {rendered.rich_content && <HtmlView html={rendered.rich_content} title="The e-mail's HTML for this contact" />}
        </Stack>
      )}
    </Stack>
  );
}
