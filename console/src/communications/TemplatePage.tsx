import { Alert, Anchor, Button, Card, Group, Loader, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { DeleteDialog } from '../components/DeleteDialog';
import { ok, placeError } from '../api/errors';
import { useLoad } from '../api/useLoad';
import { contentDrafts, contentsBody, emptyContent, type ContentDraft } from './contents';
import { ContentsEditor } from './ContentsEditor';
import { Section } from './Section';
import { TemplatePreview } from './TemplatePreview';
import type { Template } from './types';

interface Draft {
  name: string;
  code: string;
  contents: ContentDraft[];
}

const draftOf = (t: Template): Draft => ({ name: t.name, code: t.code ?? '', contents: contentDrafts(t.contents) });
const bodyOf = (d: Draft) => ({ name: d.name.trim(), code: d.code.trim() || null, contents: contentsBody(d.contents) });
/** Where a refusal goes: name, code, or a content's field (`contents.1.plain_content`). */
const fieldOf = (attribute: string) => (attribute === 'name' || attribute === 'code' || attribute.startsWith('contents') ? attribute : undefined);

/** A new template (`/communications/templates/new`) or a stored one: name, code, a content per language, and its preview for a contact. */
export function TemplatePage() {
  const { id } = useParams();
  // A fresh editor per template: nothing typed for one is left in the form of another.
  return <TemplateEditor key={id ?? 'new'} id={id} />;
}

function TemplateEditor({ id }: { id?: string }) {
  const navigate = useNavigate();
  const stored = useLoad(async () => (id ? ok(api.GET('/communication_templates/{id}', { params: { path: { id } } })) : undefined), [id]);
  const [draft, setDraft] = useState<Draft>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);

  useEffect(() => {
    if (!id) setDraft({ name: '', code: '', contents: [emptyContent('eng')] });
    else if (stored.data) setDraft(draftOf(stored.data));
  }, [id, stored.data]);

  if (stored.error) return <Section><Alert color="red" title="Cannot load the template">{stored.error.message}</Alert></Section>;
  if (!draft) return <Section><Loader aria-label="Loading" /></Section>;
  const template = stored.data;
  const unsaved = !template || JSON.stringify(bodyOf(draft)) !== JSON.stringify(bodyOf(draftOf(template)));

  async function save() {
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      if (id) {
        await ok(api.PUT('/communication_templates/{id}', { params: { path: { id } }, body: bodyOf(draft!) }));
        notifications.show({ color: 'green', message: `Saved “${draft!.name.trim()}”` });
        stored.reload();
      } else {
        const created = await ok(api.POST('/communication_templates', { body: bodyOf(draft!) }));
        notifications.show({ color: 'green', message: `Created “${draft!.name.trim()}”` });
        navigate(`/communications/templates/${created.id}`, { replace: true });
      }
    } catch (err) {
      const { field, message } = placeError(err, fieldOf);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section>
      <Group justify="space-between">
        <Title order={2} size="h3">{template ? `Template: ${template.name}` : 'New template'}</Title>
        <Anchor component={Link} to="/communications/templates" size="sm">All templates</Anchor>
      </Group>
      {failure && <Alert color="red" role="alert" title="Not saved">{failure}</Alert>}
      <form onSubmit={(e) => (e.preventDefault(), void save())} noValidate aria-label={template ? `Template ${template.name}` : 'New template'}>
        <Stack>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label="Name" required value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })} error={errors.name} miw={240} />
            <TextInput
              label="Code"
              description="Optional; unique in the organisation"
              value={draft.code}
              onChange={(e) => setDraft({ ...draft, code: e.currentTarget.value })}
              error={errors.code}
              miw={200}
            />
          </Group>
          <ContentsEditor contents={draft.contents} onChange={(contents) => setDraft({ ...draft, contents })} errors={errors} />
          <Group>
            <Button type="submit" loading={saving}>{template ? 'Save' : 'Create template'}</Button>
            {template && <Button variant="light" color="red" onClick={() => setDeleting(true)}>Delete</Button>}
          </Group>
        </Stack>
      </form>
      {template && (
        <Card withBorder component="section" aria-labelledby="preview-title">
          <Title order={3} size="h4" id="preview-title" mb="xs">Preview for a contact</Title>
          <TemplatePreview template={template} unsaved={unsaved} />
        </Card>
      )}
      {deleting && template && (
        <DeleteDialog name={template.name} consequence="The API refuses it while messages sent from it refer to it. An automation that names it would fail its e-mail step." remove={() => ok(api.DELETE('/communication_templates/{id}', { params: { path: { id: template.id } } }))} onClose={() => setDeleting(false)} onDeleted={() => navigate('/communications/templates', { replace: true })} />
      )}
    </Section>
  );
}
