import { Alert, Anchor, Button, Card, Group, Loader, Radio, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import { loadAll } from '../api/lists';
import { useLoad } from '../api/useLoad';
import type { Get } from '../api/types';
import { DeleteDialog } from '../components/DeleteDialog';
import { useOrganisationZone } from '../components/zone';
import type { PickedContact } from './ContactPicker';
import { Section } from './Section';
import { emptyFilters, FILTER_KEYS, filterDraftOf, filtersBody, SegmentFilterFields, type FilterDraft } from './SegmentFilterFields';
import { memberLabel, SegmentMembers } from './SegmentMembers';
import { SegmentPreview } from './SegmentPreview';

type Segment = Get<'/segments/{id}'>;
type SegmentType = Segment['type'];

interface SegmentDraft {
  name: string;
  code: string;
  type: SegmentType;
  filters: FilterDraft;
  members: PickedContact[];
}

interface Stored {
  segment: Segment;
  members: PickedContact[];
}

/** The segment and, for a STATIC one, all its members (the API takes at most 10,000), to edit the list whole. */
async function loadSegment(id: string): Promise<Stored> {
  const segment = await ok(api.GET('/segments/{id}', { params: { path: { id } } }));
  const members = segment.type !== 'STATIC' ? [] : await loadAll((page, size) => ok(api.GET('/segments/{id}/contacts', { params: { path: { id }, query: { page, size } } })), 10_000);
  return { segment, members: members.map((c) => ({ id: c.id, label: memberLabel(c) })) };
}

const draftOf = ({ segment, members }: Stored, zone: string): SegmentDraft => ({
  name: segment.name, code: segment.code ?? '', type: segment.type, filters: filterDraftOf(segment.filters, zone), members,
});

/** The whole segment: a type's own field only (the API refuses the other's). */
const bodyOf = (d: SegmentDraft, zone: string) => ({
  name: d.name.trim(),
  code: d.code.trim() || null,
  type: d.type,
  ...(d.type === 'FILTER' ? { filters: filtersBody(d.filters, zone) } : { contact_ids: d.members.map((m) => m.id) }),
});

/** Where a refusal goes: name, code, type, the member picker (`contact_ids.N`), a filter's field (`filters.last_name`) or the filters. */
function fieldOf(attribute: string): string | undefined {
  if (['name', 'code', 'type'].includes(attribute)) return attribute;
  if (attribute.startsWith('contact_ids')) return 'contact_ids';
  if (attribute.startsWith('filters')) return FILTER_KEYS.some((k) => attribute === `filters.${k}`) ? attribute : 'filters';
  return undefined;
}

/** A new segment (`/communications/segments/new`) or a stored one, with whom it holds now. */
export function SegmentPage() {
  const { id } = useParams();
  // A fresh editor per segment: nothing typed for one is left in the form of another.
  return <SegmentEditor key={id ?? 'new'} id={id} />;
}

function SegmentEditor({ id }: { id?: string }) {
  const navigate = useNavigate();
  const zone = useOrganisationZone();
  const stored = useLoad(async () => (id ? loadSegment(id) : undefined), [id]);
  const [draft, setDraft] = useState<SegmentDraft>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const tz = zone?.name;

  useEffect(() => {
    if (!tz) return;
    if (!id) setDraft((d) => d ?? { name: '', code: '', type: 'FILTER', filters: emptyFilters(), members: [] });
    else if (stored.data) setDraft(draftOf(stored.data, tz));
  }, [id, tz, stored.data]);

  if (stored.error) return <Section><Alert color="red" title="Cannot load the segment">{stored.error.message}</Alert></Section>;
  if (!draft || !tz) return <Section><Loader aria-label="Loading" /></Section>;
  const segment = stored.data?.segment;
  const set = <K extends keyof SegmentDraft>(key: K, value: SegmentDraft[K]) => setDraft({ ...draft, [key]: value });
  const unsaved = !stored.data || JSON.stringify(bodyOf(draft, tz)) !== JSON.stringify(bodyOf(draftOf(stored.data, tz), tz));

  async function save() {
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    const body = bodyOf(draft!, tz!);
    try {
      if (id) {
        await ok(api.PUT('/segments/{id}', { params: { path: { id } }, body }));
        notifications.show({ color: 'green', message: `Saved “${body.name}”` });
        stored.reload();
      } else {
        const created = await ok(api.POST('/segments', { body }));
        notifications.show({ color: 'green', message: `Created “${body.name}”` });
        navigate(`/communications/segments/${created.id}`, { replace: true });
      }
    } catch (err) {
      const { field, message } = placeError(err, fieldOf);
      // `contact_ids.N`: say which of the listed contacts.
      const member = /^contact_ids\.(\d+)/.exec((err as { attribute?: string }).attribute ?? '');
      const who = member && draft!.members[Number(member[1])];
      if (field) setErrors({ [field]: who ? `${who.label}: ${message}` : message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Section>
      <Group justify="space-between">
        <Title order={2} size="h3">{segment ? `Segment: ${segment.name}` : 'New segment'}</Title>
        <Anchor component={Link} to="/communications/segments" size="sm">All segments</Anchor>
      </Group>
      {failure && <Alert color="red" role="alert" title="Not saved">{failure}</Alert>}
      <form onSubmit={(e) => (e.preventDefault(), void save())} noValidate aria-label={segment ? `Segment ${segment.name}` : 'New segment'}>
        <Stack>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label="Name" required value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} miw={240} />
            <TextInput label="Code" description="Optional; unique in the organisation" value={draft.code} onChange={(e) => set('code', e.currentTarget.value)} error={errors.code} miw={200} />
          </Group>
          <Radio.Group label="Type" value={draft.type} onChange={(v) => set('type', v as SegmentType)} error={errors.type}>
            <Stack gap="xs" mt="xs">
              <Radio
                value="FILTER"
                label="Filter"
                description={`The contacts matching filters, found again each time the segment is read${segment?.type === 'STATIC' ? ' (its picked contacts are dropped when saved)' : ''}`}
              />
              <Radio value="STATIC" label="Static list" description="Contacts picked one by one" />
            </Stack>
          </Radio.Group>
          {draft.type === 'FILTER'
            ? <SegmentFilterFields value={draft.filters} onChange={(v) => set('filters', v)} errors={errors} zone={tz} />
            : <SegmentMembers value={draft.members} onChange={(v) => set('members', v)} error={errors.contact_ids} />}
          <Group>
            <Button type="submit" loading={saving}>{segment ? 'Save' : 'Create segment'}</Button>
            {segment && <Button variant="light" color="red" onClick={() => setDeleting(true)}>Delete</Button>}
          </Group>
        </Stack>
      </form>
      {segment && (
        <Card withBorder component="section" aria-labelledby="members-title" mt="md">
          <Title order={3} size="h4" id="members-title" mb="xs">Members now</Title>
          {unsaved && <Text size="sm" c="dimmed" mb="xs">As saved: the changes above count once saved.</Text>}
          <SegmentPreview id={segment.id} version={stored.data} />
        </Card>
      )}
      {deleting && segment && (
        <DeleteDialog
          name={segment.name}
          consequence="Its member list goes with it; the contacts stay. The API refuses it while a plan sends to it."
          remove={() => ok(api.DELETE('/segments/{id}', { params: { path: { id: segment.id } } }))}
          onClose={() => setDeleting(false)}
          onDeleted={() => navigate('/communications/segments', { replace: true })}
        />
      )}
    </Section>
  );
}
