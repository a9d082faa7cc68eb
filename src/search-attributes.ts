// The search attributes this service's workflows carry, so operators can find "every run of
// this automation" or "everything about this contact" with a visibility query
// (`AutomationId = "..." AND EntityId = "..."`), in the Temporal UI or through client.workflow.list().
import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Connection } from '@temporalio/client';
import type { Logger } from './log';

export const SEARCH = {
  organisationId: defineSearchAttributeKey('OrganisationId', SearchAttributeType.KEYWORD),
  entityType: defineSearchAttributeKey('EntityType', SearchAttributeType.KEYWORD),
  entityId: defineSearchAttributeKey('EntityId', SearchAttributeType.KEYWORD),
  automationId: defineSearchAttributeKey('AutomationId', SearchAttributeType.KEYWORD),
  eventType: defineSearchAttributeKey('EventType', SearchAttributeType.KEYWORD),
  eventId: defineSearchAttributeKey('EventId', SearchAttributeType.KEYWORD),
} as const;

type Name = keyof typeof SEARCH;

/** The typed search attributes of a start, leaving out the ones not known. */
export function searchAttributes(values: Partial<Record<Name, string | null | undefined>>): SearchAttributePair[] {
  return Object.entries(values).flatMap(([name, value]) => (value ? [{ key: SEARCH[name as Name], value }] : []));
}

/**
 * A Temporal cluster accepts only registered custom attributes; the embedded server takes any
 * the SDK types. Registering is idempotent (an existing one is ALREADY_EXISTS), so every
 * replica does it at start.
 */
export async function registerSearchAttributes(connection: Connection, namespace: string, log: Logger): Promise<void> {
  const searchAttributes = Object.fromEntries(Object.values(SEARCH).map((k) => [k.name, temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]));
  try {
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  } catch (err) {
    const code = (err as { code?: number }).code;
    if (code !== 6 /* ALREADY_EXISTS */) log.warn({ err }, 'could not register search attributes; visibility queries on them may fail');
  }
}
