// The plan form's values and the bodies made from them. Dates are typed on the organisation's
// clock. An update sends only what changed: the API restarts a POSTED plan's tick count when a
// schedule field is sent at all (docs/communications.md "Which ticks count").
import { contentDrafts, contentsBody, emptyContent, type ContentDraft } from './contents';
import type { Channel, Plan, PlanCreate, PlanState, PlanUpdate } from './types';
import { epochOfZoned, zonedInput } from '../components/zone';

export interface PlanDraft {
  name: string;
  /** `YYYY-MM-DDTHH:mm` in the organisation's zone. */
  start: string;
  /** Empty: no end. */
  end: string;
  preferred_channel: Channel;
  segments: string[];
  integrations: string[];
  frequency: string;
  contents: ContentDraft[];
}

/** The form's fields an API attribute lands on (`segments.2` → segments; `contents.*` as they are). */
export function planField(attribute: string): string | undefined {
  if (attribute.startsWith('contents')) return attribute;
  const top = attribute.split('.')[0];
  const fields: Record<string, string> = { name: 'name', start_date: 'start', end_date: 'end', preferred_channel: 'preferred_channel', segments: 'segments', integrations: 'integrations', frequency: 'frequency' };
  return fields[top];
}

export function newPlanDraft(zone: string): PlanDraft {
  // From the next whole hour on the clock.
  const hour = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  return { name: '', start: zonedInput(hour, zone), end: '', preferred_channel: 'EMAIL', segments: [], integrations: [], frequency: '0 9 * * 1', contents: [emptyContent('eng')] };
}

export function planDraftOf(p: Plan, zone: string): PlanDraft {
  return {
    name: p.name,
    start: zonedInput(p.start_date * 1000, zone),
    end: p.end_date === null ? '' : zonedInput(p.end_date * 1000, zone),
    preferred_channel: p.preferred_channel,
    segments: p.segments.map((s) => s.id),
    integrations: p.integrations.map((i) => i.id),
    frequency: p.frequency,
    contents: contentDrafts(p.contents),
  };
}

/** A date the form cannot read is sent as -1, so that the API names the field. */
const epochOr = (input: string, zone: string) => epochOfZoned(input, zone) ?? -1;

export function createPlanBody(d: PlanDraft, zone: string, state: PlanState): PlanCreate {
  return {
    name: d.name.trim(),
    start_date: epochOr(d.start, zone),
    end_date: d.end ? epochOr(d.end, zone) : null,
    preferred_channel: d.preferred_channel,
    segments: d.segments,
    integrations: d.integrations,
    frequency: d.frequency.trim(),
    contents: contentsBody(d.contents),
    life_cycle_state: state,
  };
}

export function updatePlanBody(d: PlanDraft, stored: Plan, zone: string, state: PlanState): PlanUpdate {
  const was = planDraftOf(stored, zone);
  const body: PlanUpdate = {};
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (d.name.trim() !== was.name) body.name = d.name.trim();
  if (d.start !== was.start) body.start_date = epochOr(d.start, zone);
  if (d.end !== was.end) body.end_date = d.end ? epochOr(d.end, zone) : null;
  if (d.preferred_channel !== was.preferred_channel) body.preferred_channel = d.preferred_channel;
  if (!same(d.segments, was.segments)) body.segments = d.segments;
  if (!same(d.integrations, was.integrations)) body.integrations = d.integrations;
  if (d.frequency.trim() !== was.frequency) body.frequency = d.frequency.trim();
  if (!same(contentsBody(d.contents), contentsBody(was.contents))) body.contents = contentsBody(d.contents);
  if (state !== stored.life_cycle_state) body.life_cycle_state = state;
  return body;
}
