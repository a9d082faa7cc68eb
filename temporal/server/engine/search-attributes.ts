/**
 * Search attribute types. A Temporal server sets `metadata.type` on each search attribute payload
 * that lacks one, from the attribute's type (the SDK decodes a Datetime to a Date by it, and
 * typedSearchAttributes skips values without it). The embedded server types payloads as they
 * enter (start, upsert, continue-as-new, child start), so every reader sees them typed. A type
 * comes from Temporal's system attributes or the namespace's registrations (OperatorService
 * AddSearchAttributes). As on a real server, a custom attribute nobody registered is refused:
 * a development server of Temporal 1.32 registers none out of the box.
 */
import type { IPayload, ISearchAttributes } from '../proto';
import type { Engine } from './engine';
import { invalidArgument } from './errors';
import { knownSearchAttributes } from '../visibility/query';
import type { SearchAttributeType } from '../visibility/types';

const SYSTEM = knownSearchAttributes().system;

/** A map's own entry (attribute names come from clients: `constructor` is just a name). */
function own(types: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(types, name) ? types[name] : undefined;
}

/** The namespace's custom attributes with their types (for queries and ListSearchAttributes). */
export function customTypes(engine: Engine, ns: string): Record<string, SearchAttributeType> {
  return { ...(engine.namespaces.get(ns).searchAttributes ?? {}) } as Record<string, SearchAttributeType>;
}

/** The first attribute of `sa` the namespace does not know, if any. */
export function unregisteredSearchAttribute(engine: Engine, ns: string, sa: ISearchAttributes | null | undefined): string | undefined {
  const custom = customTypes(engine, ns);
  return Object.keys(sa?.indexedFields ?? {}).find((name) => own(SYSTEM, name) === undefined && own(custom, name) === undefined);
}

/** Refuses a request that sets an attribute the namespace does not know, in Temporal's words. */
export function checkSearchAttributes(engine: Engine, ns: string, sa: ISearchAttributes | null | undefined): void {
  const name = unregisteredSearchAttribute(engine, ns, sa);
  if (name !== undefined) throw invalidArgument(noMapping(ns, name));
}

export const noMapping = (ns: string, name: string): string => `Namespace ${ns} has no mapping defined for search attribute ${name}`;

/** The same attributes with `metadata.type` set where it was missing and the type is known. */
export function typedSearchAttributes(engine: Engine, ns: string, sa: ISearchAttributes | null | undefined): ISearchAttributes | null | undefined {
  const fields = sa?.indexedFields;
  if (!fields) return sa;
  const custom = customTypes(engine, ns);
  const typeOf = (name: string): string | undefined => own(SYSTEM, name) ?? own(custom, name);
  const out: Record<string, IPayload> = {};
  for (const [name, p] of Object.entries(fields)) {
    const type = p.metadata?.type?.length ? undefined : typeOf(name);
    out[name] = type ? { ...p, metadata: { ...p.metadata, type: Buffer.from(type) } } : p;
  }
  return { indexedFields: out };
}
