import type { SearchAttributeType, VisibilityRecord } from './types';

/** Reads an attribute's raw value from a record; undefined means the attribute is not set. */
export type Getter = (rec: VisibilityRecord) => unknown;

export interface AttributeDef {
  type: SearchAttributeType;
  get: Getter;
  /** Special-cased names whose literals are not plain values of their type. */
  special?: 'status' | 'duration';
}

const fromSearchAttributes = (name: string): Getter => (rec) => rec.searchAttributes?.[name];

/** Attributes backed by the record's own fields. */
const RECORD_FIELDS: Record<string, AttributeDef> = {
  WorkflowId: { type: 'Keyword', get: (r) => r.workflowId },
  RunId: { type: 'Keyword', get: (r) => r.runId },
  WorkflowType: { type: 'Keyword', get: (r) => r.workflowType },
  ExecutionStatus: { type: 'Keyword', get: (r) => r.status, special: 'status' },
  TaskQueue: { type: 'Keyword', get: (r) => r.taskQueue },
  StartTime: { type: 'Datetime', get: (r) => r.startTime },
  CloseTime: { type: 'Datetime', get: (r) => r.closeTime },
  // Temporal sets ExecutionTime = StartTime (+ first backoff) for every run, so fall back to it.
  ExecutionTime: { type: 'Datetime', get: (r) => r.executionTime ?? r.startTime },
  ExecutionDuration: { type: 'Int', get: executionDurationNs, special: 'duration' },
  ParentWorkflowId: { type: 'Keyword', get: (r) => r.parent?.workflowId },
  ParentRunId: { type: 'Keyword', get: (r) => r.parent?.runId },
  RootWorkflowId: { type: 'Keyword', get: (r) => r.root?.workflowId },
  RootRunId: { type: 'Keyword', get: (r) => r.root?.runId },
};

/** Temporal system attributes the server may keep in searchAttributes. */
const SYSTEM_IN_MAP: Record<string, SearchAttributeType> = {
  BuildIds: 'KeywordList',
  BinaryChecksums: 'KeywordList',
  TemporalChangeVersion: 'KeywordList',
  BatcherUser: 'Keyword',
  TemporalScheduledStartTime: 'Datetime',
  TemporalScheduledById: 'Keyword',
  TemporalSchedulePaused: 'Bool',
  TemporalNamespaceDivision: 'Keyword',
  HistoryLength: 'Int',
  HistorySizeBytes: 'Int',
  StateTransitionCount: 'Int',
};

export function resolveAttribute(
  name: string,
  custom: Readonly<Record<string, SearchAttributeType>>,
): AttributeDef | undefined {
  const own = Object.prototype.hasOwnProperty;
  if (own.call(RECORD_FIELDS, name)) return RECORD_FIELDS[name];
  if (own.call(SYSTEM_IN_MAP, name)) return { type: SYSTEM_IN_MAP[name], get: fromSearchAttributes(name) };
  if (own.call(custom, name)) return { type: custom[name], get: fromSearchAttributes(name) };
  return undefined;
}

/** Close time minus execution time in nanoseconds; unset while the workflow runs. */
function executionDurationNs(rec: VisibilityRecord): number | undefined {
  if (!rec.closeTime) return undefined;
  const from = rec.executionTime ?? rec.startTime;
  return (rec.closeTime.getTime() - from.getTime()) * 1e6;
}

/** Every attribute name a query may use, with its type: for GetSearchAttributes / ListSearchAttributes. */
export function knownSearchAttributes(
  custom: Readonly<Record<string, SearchAttributeType>> = {},
): { system: Record<string, SearchAttributeType>; custom: Record<string, SearchAttributeType> } {
  const system: Record<string, SearchAttributeType> = { ...SYSTEM_IN_MAP };
  for (const [name, def] of Object.entries(RECORD_FIELDS)) system[name] = def.type;
  return { system, custom: { ...custom } };
}
