// The search attributes this service's workflows carry, so operators can find "every run of
// this automation" or "everything about this contact" with a visibility query
// (`AutomationId = "..." AND EntityId = "..."`), in the Temporal UI or through client.workflow.list().
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Connection } from '@temporalio/client';
import type { Logger } from '../log';

export const SEARCH = {
  organisationId: defineSearchAttributeKey('OrganisationId', SearchAttributeType.KEYWORD),
  entityType: defineSearchAttributeKey('EntityType', SearchAttributeType.KEYWORD),
  entityId: defineSearchAttributeKey('EntityId', SearchAttributeType.KEYWORD),
  automationId: defineSearchAttributeKey('AutomationId', SearchAttributeType.KEYWORD),
  eventType: defineSearchAttributeKey('EventType', SearchAttributeType.KEYWORD),
  eventId: defineSearchAttributeKey('EventId', SearchAttributeType.KEYWORD),
} as const;

type Name = keyof typeof SEARCH;

/** A start's search attributes by name; the ones not known may be left out or null. */
export type SearchValues = Partial<Record<Name, string | null | undefined>>;

/** The typed search attributes of a start, leaving out the ones not known. */
export function searchAttributes(values: SearchValues): SearchAttributePair[] {
  return Object.entries(values).flatMap(([name, value]) => (value ? [{ key: SEARCH[name as Name], value }] : []));
}

/**
 * A Temporal server accepts only registered custom attributes (a dev server started without
 * `--search-attribute` has none, nor has the embedded server). Only the missing
 * ones are added, so every replica may do it at start; a cluster that refuses (no operator
 * rights: register them once by hand) is logged and the service goes on.
 */
export async function registerSearchAttributes(connection: Connection, namespace: string, log: Logger): Promise<void> {
  try {
    const known = (await connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
    const missing = Object.values(SEARCH).map((k) => k.name).filter((name) => !(name in known));
    if (missing.length === 0) return;
    const keyword = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: Object.fromEntries(missing.map((n) => [n, keyword])) });
    log.info({ namespace, searchAttributes: missing }, 'registered search attributes');
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code !== 6 /* ALREADY_EXISTS: a replica starting at the same time */) log.warn({ err }, 'could not register search attributes; visibility queries on them may fail');
  }
}
