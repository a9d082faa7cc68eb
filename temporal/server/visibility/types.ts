/** What the visibility store keeps per workflow execution, and what list queries filter on. */
export interface VisibilityRecord {
  workflowId: string;
  runId: string;
  workflowType: string;
  /** 'Running' | 'Completed' | 'Failed' | 'Canceled' | 'Terminated' | 'ContinuedAsNew' | 'TimedOut' */
  status: string;
  startTime: Date;
  closeTime?: Date;
  executionTime?: Date;
  taskQueue: string;
  /** Set for a child workflow's runs. */
  parent?: { workflowId: string; runId: string };
  /** The top of the parent chain (the run itself when it has no parent). */
  root?: { workflowId: string; runId: string };
  /** Decoded search attribute values (string, number, boolean, Date/RFC3339 string, string[]). */
  searchAttributes: Record<string, unknown>;
}

/** Temporal's search attribute value types (enums.v1.IndexedValueType without the prefix). */
export type SearchAttributeType = 'Keyword' | 'KeywordList' | 'Text' | 'Int' | 'Double' | 'Bool' | 'Datetime';

export const EXECUTION_STATUSES = [
  'Running',
  'Completed',
  'Failed',
  'Canceled',
  'Terminated',
  'ContinuedAsNew',
  'TimedOut',
] as const;
