// Records a UUID parameter names (parameter_type in GET /adaptors), offered by name so nobody types
// a GUID. Up to 100 of each (the lists' maximum page); the select filters them as one types.
import { api } from '../api/client';
import { ok } from '../api/errors';
import { session } from '../auth/session';

export interface Option {
  value: string;
  label: string;
}

const SIZE = { query: { size: 100 } } as const;

const LOADERS: Record<string, () => Promise<Option[]>> = {
  WEBHOOK: async () => (await ok(api.GET('/webhooks', { params: SIZE }))).content.map((w) => ({ value: w.id, label: `${w.name} (${w.method} ${w.url_endpoint})` })),
  TEMPLATE: async () => (await ok(api.GET('/communication_templates', { params: SIZE }))).content.map((t) => ({ value: t.id, label: t.code ? `${t.name} (${t.code})` : t.name })),
  INTEGRATION: async () => (await ok(api.GET('/integrations', { params: SIZE }))).content.map((i) => ({ value: i.id, label: `${i.name} (${i.channel})` })),
  USER: async () => (await ok(api.GET('/users', { params: SIZE }))).content.map((u) => ({ value: u.id, label: u.name ? `${u.name} (${u.username})` : u.username })),
  DEPARTMENT: async () => (await ok(api.GET('/departments', { params: SIZE }))).content.map((d) => ({ value: d.id, label: d.name })),
  USER_ROLE: async () => (await ok(api.GET('/user_roles', { params: SIZE }))).content.map((r) => ({ value: r.id, label: r.name })),
  // Add To Segment takes members into a STATIC segment only (a FILTER one is refused when saved).
  SEGMENT: async () => (await ok(api.GET('/segments', { params: { query: { size: 100, type: 'STATIC' } } }))).content.map((s) => ({ value: s.id, label: s.code ? `${s.name} (${s.code})` : s.name })),
  ORGANISATION: async () => {
    const units = (await ok(api.GET('/organisations', { params: SIZE }))).content.map((o) => ({ value: o.id, label: `${o.name} (${o.type})` }));
    const own = session.current()?.identity.organisationId;
    return own ? [{ value: own, label: 'This organisation' }, ...units] : units;
  },
};

const cache = new Map<string, Promise<Option[]>>();

/** Whether a parameter of this type is chosen from a list of records. */
export const hasLookup = (parameterType: string) => parameterType in LOADERS;

/** The options for a parameter type; `fresh` reloads (after creating a record elsewhere). */
export function lookup(parameterType: string, fresh = false): Promise<Option[]> {
  if (fresh || !cache.has(parameterType)) {
    const loaded = LOADERS[parameterType]().catch((err) => {
      cache.delete(parameterType);
      throw err;
    });
    cache.set(parameterType, loaded);
  }
  return cache.get(parameterType)!;
}

/** Lookups are per user: forgotten at logout. */
session.subscribe(() => {
  if (!session.current()) cache.clear();
});
