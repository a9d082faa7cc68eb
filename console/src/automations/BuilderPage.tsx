import { Alert, Anchor, Button, Group, Loader, Select, Stack, Switch, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { ok, placeError } from '../api/errors';
import type { AutomationCreate } from '../api/types';
import { useLoad } from '../api/useLoad';
import { ActionCard } from './ActionCard';
import { AutomationTabs } from './AutomationTabs';
import { actionOf, entityOf, loadCatalogue } from './catalogue';
import { fieldOfAttribute, fromStored, newAction, toBody, type DraftAction, type DraftFilter } from './draft';

interface Header {
  name: string;
  description: string;
  entity: string;
  event: string;
  active: boolean;
}

const HEADER_FIELDS = ['name', 'description', 'entity', 'event', 'life_cycle_state', 'state'];

/** Create or edit an automation: its trigger, its actions with their parameters and conditions, its state. */
export function BuilderPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const loaded = useLoad(async () => {
    const catalogue = await loadCatalogue();
    if (!id) return { catalogue, automation: undefined, actions: [] as DraftAction[] };
    const [automation, actions] = await Promise.all([
      ok(api.GET('/automations/{id}', { params: { path: { id } } })),
      ok(api.GET('/automations/{id}/actions', { params: { path: { id } } })),
    ]);
    return { catalogue, automation, actions: actions.content.map(fromStored) };
  }, [id]);

  const [header, setHeader] = useState<Header>({ name: '', description: '', entity: 'CONTACTS', event: '', active: false });
  const [actions, setActions] = useState<DraftAction[]>([]);
  const [storedActionCount, setStoredActionCount] = useState(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [saving, setSaving] = useState(false);
  // A new automation whose actions were refused is already created: later saves update it. The
  // page stays (and keeps the draft) until a save succeeds.
  const [created, setCreated] = useState<{ id: string; entity: string }>();

  useEffect(() => {
    const d = loaded.data;
    if (!d) return;
    if (d.automation) {
      const a = d.automation;
      setHeader({ name: a.name, description: a.description ?? '', entity: a.entity, event: a.event, active: a.life_cycle_state === 'ACTIVE' });
    }
    setActions(d.actions);
    setStoredActionCount(d.actions.length);
  }, [loaded.data]);

  const catalogue = loaded.data?.catalogue;
  const entity = catalogue ? entityOf(catalogue, header.entity) : undefined;
  const addChoices = useMemo(
    () => catalogue?.adaptors.map((a) => ({ group: a.name, items: a.actions.map((x) => ({ value: `${a.code}:${x.code}`, label: x.name })) })) ?? [],
    [catalogue],
  );
  const descriptions = useMemo(() => new Map<string, string>(catalogue?.adaptors.flatMap((a) => a.actions.map((x) => [`${a.code}:${x.code}`, x.description] as const))), [catalogue]);

  if (loaded.error) return <Alert color="red" title="Cannot load the automation">{loaded.error.message}</Alert>;
  if (!catalogue) return <Loader aria-label="Loading" />;

  const errorOf = (f: string) => errors[f];
  const update = (i: number, a: DraftAction) => {
    setActions((all) => all.map((x, n) => (n === i ? a : x)));
    // Changing an action answers its refusal: the message goes (others stay until the next save).
    setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !k.startsWith(`actions.${i}.`))));
  };
  const move = (i: number, by: -1 | 1) =>
    setActions((all) => {
      const next = [...all];
      [next[i], next[i + by]] = [next[i + by], next[i]];
      return next;
    });
  const copyFilters = (from: DraftAction) => {
    const clone = (groups: DraftFilter[][]) => groups.map((g) => g.map((f) => ({ ...f, key: `${f.key}-${Math.random()}`, values: [...f.values] })));
    setActions((all) => all.map((a) => (a === from ? a : { ...a, groups: clone(from.groups) })));
  };

  async function save() {
    setSaving(true);
    setErrors({});
    setFailure(undefined);
    const { body, sentKeys } = toBody(actions, entity?.attributes ?? [], (a) => actionOf(catalogue!, a.adaptor, a.action));
    let automationId = id ?? created?.id;
    try {
      const state = header.active ? 'ACTIVE' : 'INACTIVE';
      const common = { name: header.name, description: header.description || null, event: header.event as AutomationCreate['event'] };
      const entityCode = header.entity as AutomationCreate['entity'];
      if (!automationId) {
        // Created inactive, activated only once its actions are stored: no event runs half a sequence.
        automationId = (await ok(api.POST('/automations', { body: { ...common, entity: entityCode, life_cycle_state: 'INACTIVE' } }))).id;
        setCreated({ id: automationId, entity: entityCode });
      } else {
        // Sent only when changed: the entity is fixed while the automation has actions.
        const storedEntity = loaded.data?.automation?.entity ?? created?.entity;
        const entityChange = storedEntity !== header.entity ? { entity: entityCode } : {};
        await ok(api.PUT('/automations/{id}', { params: { path: { id: automationId } }, body: { ...common, ...entityChange, ...(header.active ? {} : { state }) } }));
      }
      await ok(api.POST('/automations/{id}/actions', { params: { path: { id: automationId } }, body }));
      if (header.active) await ok(api.PUT('/automations/{id}', { params: { path: { id: automationId } }, body: { state } }));
      setStoredActionCount(actions.length);
      notifications.show({ color: 'green', message: `Saved “${header.name}”` });
      navigate(`/automations/${automationId}`, { replace: true });
      loaded.reload();
    } catch (err) {
      showError(err, sentKeys);
    } finally {
      setSaving(false);
    }
  }

  function showError(err: unknown, sentKeys: string[][]) {
    const placed = placeError(err, (attribute) => {
      const name = attribute === 'state' ? 'life_cycle_state' : attribute;
      return HEADER_FIELDS.includes(name) ? name : fieldOfAttribute(name, sentKeys);
    });
    if (placed.field) setErrors({ [placed.field]: placed.message });
    else setFailure(placed.message);
  }

  const addAction = (value: string | null) => {
    if (!value) return;
    const [adaptor, action] = value.split(':');
    setActions((all) => [...all, newAction(adaptor, action)]);
  };

  const form = (
    <Stack>
      {failure && <Alert color="red" role="alert" title="Not saved">{failure}</Alert>}
      <TextInput label="Name" required value={header.name} onChange={(e) => setHeader({ ...header, name: e.currentTarget.value })} error={errorOf('name')} />
      <Textarea label="Description" autosize minRows={1} value={header.description} onChange={(e) => setHeader({ ...header, description: e.currentTarget.value })} error={errorOf('description')} />
      <Group grow align="flex-start">
        <Select
          label="Entity"
          required
          data={catalogue.entities.map((e) => ({ value: e.entity, label: e.name }))}
          value={header.entity}
          onChange={(v) => v && setHeader({ ...header, entity: v, event: '' })}
          disabled={storedActionCount > 0 && !!id}
          description={storedActionCount > 0 && id ? 'Fixed while the automation has actions (their conditions name its attributes)' : undefined}
          error={errorOf('entity')}
        />
        <Select
          label="When this happens"
          required
          data={(entity?.events ?? []).map((e) => ({ value: e.event, label: e.name }))}
          value={header.event || null}
          onChange={(v) => setHeader({ ...header, event: v ?? '' })}
          error={errorOf('event')}
        />
      </Group>
      <Switch label="Active (runs on new events)" checked={header.active} onChange={(e) => setHeader({ ...header, active: e.currentTarget.checked })} error={errorOf('life_cycle_state')} />
      <Title order={2} size="h3">Actions, in order</Title>
      {actions.map((a, i) => (
        <ActionCard
          key={a.key}
          index={i}
          count={actions.length}
          action={a}
          def={actionOf(catalogue, a.adaptor, a.action)}
          adaptorName={catalogue.adaptors.find((x) => x.code === a.adaptor)?.name ?? a.adaptor}
          attributes={entity?.attributes ?? []}
          errorOf={errorOf}
          onChange={(next) => update(i, next)}
          onMove={(by) => move(i, by)}
          onRemove={() => setActions((all) => all.filter((_, n) => n !== i))}
          onCopyFilters={() => copyFilters(a)}
        />
      ))}
      <Select
        label="Add an action"
        placeholder="Choose an action"
        data={addChoices}
        value={null}
        onChange={addAction}
        searchable
        w={420}
        renderOption={({ option }) => (
          <Stack gap={0}>
            <Text size="sm">{option.label}</Text>
            <Text size="xs" c="dimmed">{descriptions.get(option.value)}</Text>
          </Stack>
        )}
      />
      <Group>
        <Button onClick={save} loading={saving}>Save</Button>
        <Button variant="default" component={Link} to="/automations">Back to the list</Button>
      </Group>
    </Stack>
  );
  const stored = loaded.data?.automation;

  return (
    <Stack maw={960}>
      <Group justify="space-between">
        <Title order={1} size="h2">{id ? `Automation: ${stored?.name ?? ''}` : 'New automation'}</Title>
        {id && <Anchor component={Link} to={`/automations/${id}/runs`}>Run history</Anchor>}
      </Group>
      {/* Simulations judge the automation as saved: a new one gets them once it exists. */}
      {id && stored ? <AutomationTabs automationId={id} entity={stored.entity} catalogue={catalogue} definition={form} /> : form}
    </Stack>
  );
}
