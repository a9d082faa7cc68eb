// The catalogue automations are built from (GET /automation_events, GET /adaptors): the same for
// every organisation and fixed while the service runs, so it is read once per page load.
import { api } from '../api/client';
import { ok } from '../api/errors';
import type { AdaptorDef, EntityDef } from '../api/types';

export interface Catalogue {
  entities: EntityDef[];
  adaptors: AdaptorDef[];
}

let loading: Promise<Catalogue> | null = null;

export function loadCatalogue(): Promise<Catalogue> {
  loading ??= Promise.all([ok(api.GET('/automation_events')), ok(api.GET('/adaptors'))])
    .then(([events, adaptors]) => ({ entities: events.content, adaptors: adaptors.content }))
    .catch((err) => {
      loading = null;
      throw err;
    });
  return loading;
}

export const entityOf = (c: Catalogue, code: string) => c.entities.find((e) => e.entity === code);
export const actionOf = (c: Catalogue, adaptor: string, action: string) =>
  c.adaptors.find((a) => a.code === adaptor)?.actions.find((x) => x.code === action);
export const eventName = (c: Catalogue, entity: string, event: string) =>
  entityOf(c, entity)?.events.find((e) => e.event === event)?.name ?? event;
