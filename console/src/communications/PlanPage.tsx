import { Alert, Anchor, Badge, Button, Group, Loader, Modal, MultiSelect, SegmentedControl, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { DeleteDialog } from '../components/DeleteDialog';
import { ok, placeError } from '../api/errors';
import { loadAll } from '../api/lists';
import { useLoad } from '../api/useLoad';
import { contentDrafts } from './contents';
import { ContentsEditor } from './ContentsEditor';
import { FrequencyInput } from './FrequencyInput';
import { createPlanBody, newPlanDraft, planDraftOf, planField, updatePlanBody, type PlanDraft } from './planDraft';
import { nextTicks } from './schedule';
import { Section } from './Section';
import { CHANNELS, PLAN_COLOURS, type Channel, type PlanState } from './types';
import { epochOfZoned, scheduleTime, useOrganisationZone } from '../components/zone';

/** A new plan (`/communications/plans/new`) or a stored one: what is sent, to whom, when; saved as a DRAFT or POSTED. */
export function PlanPage() {
  const { id } = useParams();
  return <PlanEditor key={id ?? 'new'} id={id} />;
}

/** The pickers' records: segments and integrations by name, and templates to copy contents from. */
function usePickers() {
  return useLoad(
    () =>
      Promise.all([
        loadAll((page, size) => ok(api.GET('/segments', { params: { query: { page, size, sort: 'name', order: 'ASC' } } }))),
        loadAll((page, size) => ok(api.GET('/integrations', { params: { query: { page, size, sort: 'name', order: 'ASC' } } }))),
        loadAll((page, size) => ok(api.GET('/communication_templates', { params: { query: { page, size, sort: 'name', order: 'ASC' } } }))),
      ]).then(([segments, integrations, templates]) => ({ segments, integrations, templates })),
    [],
  );
}

function PlanEditor({ id }: { id?: string }) {
  const navigate = useNavigate();
  const zone = useOrganisationZone();
  const stored = useLoad(async () => (id ? ok(api.GET('/communication_plans/{id}', { params: { path: { id } } })) : undefined), [id]);
  const pickers = usePickers();
  const [draft, setDraft] = useState<PlanDraft>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const tz = zone?.name;

  useEffect(() => {
    if (!tz) return;
    if (!id) setDraft((d) => d ?? newPlanDraft(tz));
    else if (stored.data) setDraft(planDraftOf(stored.data, tz));
  }, [id, tz, stored.data]);

  const loadError = stored.error ?? pickers.error;
  if (loadError) return <Section><Alert color="red" title="Cannot load the plan">{loadError.message}</Alert></Section>;
  if (!draft || !tz || !pickers.data) return <Section><Loader aria-label="Loading" /></Section>;
  const plan = stored.data;
  const { segments, integrations, templates } = pickers.data;
  const set = <K extends keyof PlanDraft>(key: K, value: PlanDraft[K]) => setDraft({ ...draft, [key]: value });
  const startMs = epochOfZoned(draft.start, tz);
  const endMs = draft.end ? epochOfZoned(draft.end, tz) : null;

  async function save(state: PlanState) {
    setConfirming(false);
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    try {
      if (plan) {
        const body = updatePlanBody(draft!, plan, tz!, state);
        if (Object.keys(body).length > 0) await ok(api.PUT('/communication_plans/{id}', { params: { path: { id: plan.id } }, body }));
        const name = draft!.name.trim();
        const said = state === plan.life_cycle_state ? `Saved “${name}”` : state === 'POSTED' ? `Posted “${name}”` : `“${name}” is a draft again: no more ticks`;
        notifications.show({ color: 'green', message: said });
        stored.reload();
      } else {
        const created = await ok(api.POST('/communication_plans', { body: createPlanBody(draft!, tz!, state) }));
        notifications.show({ color: 'green', message: state === 'POSTED' ? `Posted “${draft!.name.trim()}”` : `Saved “${draft!.name.trim()}” as a draft` });
        navigate(`/communications/plans/${created.id}`, { replace: true });
      }
    } catch (err) {
      const { field, message } = placeError(err, planField);
      if (field) setErrors({ [field]: message });
      else setFailure(message);
    } finally {
      setSaving(false);
    }
  }

  const state = plan?.life_cycle_state ?? 'DRAFT';
  const firstTick = startMs !== undefined ? nextTicks(draft.frequency, startMs * 1000, endMs == null ? null : endMs * 1000, Date.now(), 1)[0] : undefined;
  return (
    <Section>
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={2} size="h3">{plan ? `Plan: ${plan.name}` : 'New plan'}</Title>
          <Badge variant="light" color={PLAN_COLOURS[state]} data-testid="plan-state">{state}</Badge>
        </Group>
        <Anchor component={Link} to="/communications/plans" size="sm">All plans</Anchor>
      </Group>
      {plan?.life_cycle_state === 'POSTED' && (
        <Text size="sm" data-testid="plan-next-tick">
          Next tick (the service's own count): {plan.next_tick_on === null ? 'none: past the end' : scheduleTime(plan.next_tick_on * 1000, tz)}
        </Text>
      )}
      {failure && <Alert color="red" role="alert" title="Not saved">{failure}</Alert>}
      <form onSubmit={(e) => (e.preventDefault(), void save(state))} noValidate aria-label={plan ? `Plan ${plan.name}` : 'New plan'}>
        <Stack>
          <TextInput label="Name" required value={draft.name} onChange={(e) => set('name', e.currentTarget.value)} error={errors.name} maw={520} />
          <Group align="flex-start" wrap="wrap">
            <TextInput label={`Start (${tz})`} required type="datetime-local" value={draft.start} onChange={(e) => set('start', e.currentTarget.value)} error={errors.start} w={260} />
            <TextInput
              label={`End (${tz})`}
              type="datetime-local"
              description="Empty: no end"
              value={draft.end}
              onChange={(e) => set('end', e.currentTarget.value)}
              error={errors.end}
              w={260}
            />
          </Group>
          <FrequencyInput value={draft.frequency} onChange={(v) => set('frequency', v)} error={errors.frequency} start={startMs === undefined ? undefined : startMs * 1000} end={endMs == null ? null : endMs * 1000} zone={tz} zoneUnknown={!zone?.known} />
          <MultiSelect
            label="Segments"
            required
            description="Whose contacts receive it (a contact in two segments gets it once)"
            data={segments.map((s) => ({ value: s.id, label: s.type === 'STATIC' ? `${s.name} (${s.contact_count === 1 ? '1 contact' : `${s.contact_count} contacts`})` : `${s.name} (filter)` }))}
            value={draft.segments}
            onChange={(v) => set('segments', v)}
            searchable
            nothingFoundMessage={segments.length ? 'No segment matches' : 'The organisation has no segment yet'}
            error={errors.segments}
            maw={520}
          />
          <div>
            <Text size="sm" fw={500} id="channel-label">Channel</Text>
            <SegmentedControl aria-labelledby="channel-label" data={CHANNELS} value={draft.preferred_channel} onChange={(v) => set('preferred_channel', v as Channel)} />
            {errors.preferred_channel && <Text size="xs" c="red">{errors.preferred_channel}</Text>}
          </div>
          <MultiSelect
            label="Integrations"
            description="At most one per channel. None for the channel: the organisation's oldest of it (e-mail: else the service's own mailer)"
            data={integrations.map((i) => ({ value: i.id, label: `${i.name} (${i.channel}, ${i.provider})` }))}
            value={draft.integrations}
            onChange={(v) => set('integrations', v)}
            searchable
            nothingFoundMessage="No integration"
            error={errors.integrations}
            maw={520}
          />
          {templates.length > 0 && (
            <Select
              label="Start from a template"
              description="Copies its contents below (replacing them)"
              placeholder="Pick a template"
              data={templates.map((t) => ({ value: t.id, label: t.code ? `${t.name} (${t.code})` : t.name }))}
              value={null}
              onChange={(v) => {
                const t = templates.find((x) => x.id === v);
                if (t) set('contents', contentDrafts(t.contents));
              }}
              searchable
              maw={520}
            />
          )}
          <ContentsEditor contents={draft.contents} onChange={(contents) => set('contents', contents)} errors={errors} subjectRequired={draft.preferred_channel === 'EMAIL'} />
          <Group>
            {state === 'DRAFT' && (
              <>
                <Button type="submit" variant={plan ? 'filled' : 'default'} loading={saving}>{plan ? 'Save' : 'Save as draft'}</Button>
                <Button onClick={() => setConfirming(true)} disabled={saving}>Save and post</Button>
              </>
            )}
            {state === 'POSTED' && (
              <>
                <Button type="submit" loading={saving}>Save</Button>
                <Button variant="default" onClick={() => void save('DRAFT')} disabled={saving}>Back to draft</Button>
              </>
            )}
            {plan && <Button variant="light" color="red" onClick={() => setDeleting(true)}>Delete</Button>}
          </Group>
        </Stack>
      </form>
      {confirming && (
        <Modal opened onClose={() => setConfirming(false)} title={`Post “${draft.name.trim() || 'this plan'}”?`}>
          <Stack>
            <Text size="sm">
              From then on every contact of its segments gets it by {draft.preferred_channel} at each tick, unless they opted out.
              {firstTick !== undefined ? ` The first tick: ${scheduleTime(firstTick, tz)} (${tz}).` : ' No tick falls between its start and end.'}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)} data-autofocus>Not yet</Button>
              <Button onClick={() => void save('POSTED')}>Post</Button>
            </Group>
          </Stack>
        </Modal>
      )}
      {deleting && plan && <DeleteDialog name={plan.name} consequence="No more ticks are sent. Messages already sent stay in the list with the plan's name; any of a tick still being sent fail." remove={() => ok(api.DELETE('/communication_plans/{id}', { params: { path: { id: plan.id } } }))} onClose={() => setDeleting(false)} onDeleted={() => navigate('/communications/plans', { replace: true })} />}
    </Section>
  );
}
