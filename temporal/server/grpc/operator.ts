/**
 * OperatorService: search attributes. AddSearchAttributes registers custom attributes per
 * namespace (their types then type the payloads that arrive without one, as in Temporal); the
 * embedded server still accepts attributes nobody registered, so the list is the development
 * server's defaults, every attribute the namespace's runs carry, and the registered ones.
 */
import { def, Handler } from './service';
import { enums, type api } from '../proto';
import { Engine, Tx } from '../engine/engine';
import { invalid } from './errors';
import { indexedValueTypes } from './read';
import { customTypes } from '../engine/search-attributes';
import { knownSearchAttributes } from '../visibility/query';

/** INDEXED_VALUE_TYPE_KEYWORD_LIST → 'KeywordList'; undefined for UNSPECIFIED or unknown numbers. */
function typeName(v: number): string | undefined {
  const key = Object.entries(enums.IndexedValueType).find(([, n]) => n === v)?.[0];
  if (!key || v === enums.IndexedValueType.INDEXED_VALUE_TYPE_UNSPECIFIED) return undefined;
  return key
    .replace(/^INDEXED_VALUE_TYPE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());
}

export function operatorHandlers(engine: Engine): Record<string, Handler> {
  return {
    ListSearchAttributes: def<api.operatorservice.v1.IListSearchAttributesRequest>(async (r) => {
      if (!r.namespace) throw invalid('Namespace is not set on request.');
      const ns = engine.namespaces.get(r.namespace).name;
      const known = knownSearchAttributes(customTypes(engine, ns));
      return { systemAttributes: indexedValueTypes(known.system), customAttributes: indexedValueTypes(known.custom) };
    }),

    AddSearchAttributes: def<api.operatorservice.v1.IAddSearchAttributesRequest>(async (r) => {
      if (!r.namespace) throw invalid('Namespace is not set on request.');
      const ns = engine.namespaces.get(r.namespace).name;
      const system = knownSearchAttributes().system;
      const attrs: Record<string, string> = {};
      for (const [name, v] of Object.entries(r.searchAttributes ?? {})) {
        if (Object.prototype.hasOwnProperty.call(system, name)) throw invalid(`Search attribute ${name} is reserved by system.`);
        const type = typeName(v);
        if (!type) throw invalid(`Unknown search attribute type: ${v}`);
        attrs[name] = type;
      }
      const rec = engine.namespaces.addSearchAttributes(ns, attrs);
      if (rec) {
        const tx = new Tx();
        tx.ns.push(rec);
        await engine.commit(tx);
      }
      return {};
    }),
  };
}
