/**
 * Search attribute types. A Temporal server sets `metadata.type` on each search attribute payload
 * that lacks one, from the attribute's type (the SDK decodes a Datetime to a Date by it, and
 * typedSearchAttributes skips values without it). The embedded server types payloads as they
 * enter (start, upsert, continue-as-new, child start), so every reader sees them typed. A type
 * comes from: Temporal's system attributes, the namespace's registrations (OperatorService
 * AddSearchAttributes), the development server's default custom attributes, and last the types
 * other runs' payloads declared (the embedded server accepts attributes nobody registered).
 */
import type { IPayload, ISearchAttributes } from '../proto';
import type { Engine } from './engine';
import { decodeFields } from './fields';
import { DEFAULT_CUSTOM_SEARCH_ATTRIBUTES, knownSearchAttributes } from '../visibility/query';
import type { SearchAttributeType } from '../visibility/types';

const SYSTEM = knownSearchAttributes().system;

/** A map's own entry (attribute names come from clients: `constructor` is just a name). */
function own(types: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(types, name) ? types[name] : undefined;
}

/** Types declared by the payloads of the namespace's runs (closed runs on disk: as they were gathered). */
function declaredTypes(engine: Engine, ns: string): Record<string, SearchAttributeType> {
  const out = { ...engine.closedRuns.declaredTypes(ns) } as Record<string, SearchAttributeType>;
  for (const run of engine.runs.values()) {
    if (run.ns !== ns) continue;
    for (const [k, p] of Object.entries(decodeFields(run.s.sa))) {
      const t = p.metadata?.type ? Buffer.from(p.metadata.type).toString('utf8') : undefined;
      if (t) out[k] = t as SearchAttributeType;
    }
  }
  return out;
}

function registeredTypes(engine: Engine, ns: string): Record<string, SearchAttributeType> {
  return (engine.namespaces.get(ns).searchAttributes ?? {}) as Record<string, SearchAttributeType>;
}

/** The namespace's custom attributes with their types (for queries and ListSearchAttributes). */
export function customTypes(engine: Engine, ns: string): Record<string, SearchAttributeType> {
  return { ...DEFAULT_CUSTOM_SEARCH_ATTRIBUTES, ...declaredTypes(engine, ns), ...registeredTypes(engine, ns) };
}

/** The same attributes with `metadata.type` set where it was missing and the type is known. */
export function typedSearchAttributes(engine: Engine, ns: string, sa: ISearchAttributes | null | undefined): ISearchAttributes | null | undefined {
  const fields = sa?.indexedFields;
  if (!fields) return sa;
  let declared: Record<string, SearchAttributeType> | undefined;
  const typeOf = (name: string): string | undefined =>
    own(SYSTEM, name) ?? own(registeredTypes(engine, ns), name) ?? own(DEFAULT_CUSTOM_SEARCH_ATTRIBUTES, name) ?? own((declared ??= declaredTypes(engine, ns)), name);
  const out: Record<string, IPayload> = {};
  for (const [name, p] of Object.entries(fields)) {
    const type = p.metadata?.type?.length ? undefined : typeOf(name);
    out[name] = type ? { ...p, metadata: { ...p.metadata, type: Buffer.from(type) } } : p;
  }
  return { indexedFields: out };
}
