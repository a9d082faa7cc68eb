// The filters of a FILTER segment: the GET /contacts filters the API allows a segment
// (src/api/segments/schemas.ts `segmentFilters`). Days are the organisation's, as on every
// date input of the console that the API counts by (components/zone.ts).
import { SimpleGrid, Text, TextInput } from '@mantine/core';
import type { ChangeEvent } from 'react';
import type { Body } from '../api/types';
import { endOfDay, startOfDay, zonedInput } from '../components/zone';

export type SegmentFilters = NonNullable<Body<'/segments', 'post'>['filters']>;

const TEXTS = [
  { key: 'search_value', label: 'Free text', description: 'Within the name, company, code, phone or loyalty identifier' },
  { key: 'code', label: 'Contact code' },
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'company_name', label: 'Company name' },
  { key: 'email_address', label: 'E-mail address' },
  { key: 'phone_number', label: 'Phone number', description: 'Matched on digits only' },
  { key: 'statutory_number', label: 'Statutory number' },
  { key: 'cim', label: 'Identification medium' },
  { key: 'loyalty_identifier', label: 'Loyalty identifier' },
] as const;
const DATES = [
  { key: 'registered_on_from', label: 'Registered from' },
  { key: 'registered_on_to', label: 'Registered until' },
] as const;
export const FILTER_KEYS = [...TEXTS, ...DATES].map((f) => f.key);
type FilterKey = (typeof FILTER_KEYS)[number];

/** As typed: text, and days as `YYYY-MM-DD`; empty is not sent. */
export type FilterDraft = Record<FilterKey, string>;

export const emptyFilters = (): FilterDraft => Object.fromEntries(FILTER_KEYS.map((k) => [k, ''])) as FilterDraft;

/** The stored filters as the form shows them (epochs as days of `zone`). */
export function filterDraftOf(filters: Record<string, unknown> | null, zone: string): FilterDraft {
  const draft = emptyFilters();
  for (const { key } of TEXTS) if (typeof filters?.[key] === 'string') draft[key] = filters[key];
  for (const { key } of DATES) if (typeof filters?.[key] === 'number') draft[key] = zonedInput(filters[key] * 1000, zone).slice(0, 10);
  return draft;
}

/** Only what was filled; the days as the first and the last second of each in `zone` (the API's bounds are inclusive). */
export function filtersBody(draft: FilterDraft, zone: string): SegmentFilters {
  const body: SegmentFilters = {};
  for (const { key } of TEXTS) if (draft[key].trim()) body[key] = draft[key].trim();
  if (draft.registered_on_from) body.registered_on_from = startOfDay(draft.registered_on_from, zone);
  if (draft.registered_on_to) body.registered_on_to = endOfDay(draft.registered_on_to, zone);
  return body;
}

export function SegmentFilterFields({ value, onChange, errors, zone }: {
  value: FilterDraft;
  onChange: (value: FilterDraft) => void;
  /** Keyed by the API's attribute: `filters.last_name`, or `filters` for the whole. */
  errors: Record<string, string>;
  zone: string;
}) {
  const field = (key: FilterKey) => ({
    value: value[key],
    onChange: (e: ChangeEvent<HTMLInputElement>) => onChange({ ...value, [key]: e.currentTarget.value }),
    error: errors[`filters.${key}`],
  });
  return (
    <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Text component="legend" size="sm" fw={500}>Filters</Text>
      <Text size="xs" c="dimmed">A contact belongs when it matches every filter filled in (as the customer search does), at the time the segment is read. None: every contact.</Text>
      {errors.filters && <Text size="xs" c="red" role="alert">{errors.filters}</Text>}
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} pt="xs">
        {TEXTS.map((f) => <TextInput key={f.key} label={f.label} description={'description' in f ? f.description : undefined} {...field(f.key)} />)}
        {DATES.map((f) => <TextInput key={f.key} type="date" label={f.label} description={`A day in ${zone}, included`} {...field(f.key)} />)}
      </SimpleGrid>
    </fieldset>
  );
}
