/**
 * OperatorService: only what the Temporal UI reads. Custom attributes are not registered here:
 * the embedded server accepts any the SDK types, so the list is the development server's defaults
 * plus every attribute the namespace's runs carry.
 */
import { def, Handler } from './service';
import type { api } from '../proto';
import { Engine } from '../engine/engine';
import { invalid } from './errors';
import { customTypes, indexedValueTypes } from './read';
import { DEFAULT_CUSTOM_SEARCH_ATTRIBUTES, knownSearchAttributes } from '../visibility/query';

export function operatorHandlers(engine: Engine): Record<string, Handler> {
  return {
    ListSearchAttributes: def<api.operatorservice.v1.IListSearchAttributesRequest>(async (r) => {
      if (!r.namespace) throw invalid('Namespace is not set on request.');
      const ns = engine.namespaces.get(r.namespace).name;
      const known = knownSearchAttributes({ ...DEFAULT_CUSTOM_SEARCH_ATTRIBUTES, ...customTypes(engine, ns) });
      return { systemAttributes: indexedValueTypes(known.system), customAttributes: indexedValueTypes(known.custom) };
    }),
  };
}
