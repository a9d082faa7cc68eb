// An automation's runs (GET /automations/{id}/runs, docs/automations.md "Run history"), read from
// what the runs store: one adaptor action record per action a run reached. A run is the records
// of one event, so a page is one statement: the page of event ids (newest event first: event ids
// are UUIDv7, time-ordered), their records, the total, and the automation's current sequence and
// last change, which tell a run still going on from one that ended.
import type { OrgSql } from '../../db/sql';
import { pageAt } from '../../db/sql-params';
import { notFound } from '../errors';
import { recordReason, type RecordAttribute, type RecordStatus } from './records';

export const RUN_STATES = ['RUNNING', 'WAITING_FOR_APPROVAL', 'COMPLETED', 'SKIPPED', 'FAILED', 'REJECTED'] as const;
export type RunState = (typeof RUN_STATES)[number];

export interface RunStep {
  /** 1 for the first action the run reached. */
  order: number;
  recordId: string;
  actionId: string;
  adaptor: string;
  adaptorAction: string;
  status: RecordStatus;
  reason: string | null;
  attributes: RecordAttribute[];
  createdAt: Date;
}

export interface AutomationRun {
  eventId: string;
  eventType: string;
  /** When the event was recorded: the millisecond in its UUIDv7 id, kept after the outbox forgets the event. */
  occurredAt: Date;
  entity: { type: string; id: string; reference: string | null };
  state: RunState;
  /** Why a FAILED or REJECTED run stopped: its stopping action's reason. */
  reason: string | null;
  workflowId: string;
  startedAt: Date;
  updatedAt: Date;
  steps: RunStep[];
}

interface RecordRow {
  id: string;
  actionId: string;
  adaptor: string;
  adaptorAction: string;
  status: RecordStatus;
  attributes: RecordAttribute[] | null;
  eventType: string;
  entityType: string;
  entityId: string;
  entityReference: string | null;
  workflowId: string;
  createdMs: number;
  updatedMs: number;
}

interface PageRow {
  changedMs: number | null;
  total: number;
  sequence: Array<{ actionId: string; position: number }>;
  runs: Array<{ eventId: string; records: RecordRow[] }>;
}

const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::bigint`;

/**
 * $2 the automation, $3 the page size, $4 the offset. Records are filtered on the organisation
 * everywhere; their index (organisation_id, automation_id, event_id) serves the page, the count
 * and each run's records. Within a run, records are in the order they were written (the actions
 * run one after the other), the sequence's order breaking a tie of the same millisecond.
 */
const pageStatement = (direction: 'ASC' | 'DESC') => `WITH automation AS (
  SELECT ${ms('updated_at')} AS changed_ms FROM automations WHERE organisation_id = $1 AND id = $2::uuid
), page AS (
  SELECT event_id FROM adaptor_action_records
  WHERE organisation_id = $1 AND automation_id = $2::uuid
  GROUP BY event_id ORDER BY event_id ${direction} ${pageAt(3)}
)
SELECT
  (SELECT changed_ms FROM automation) AS "changedMs",
  (SELECT count(DISTINCT event_id)::int FROM adaptor_action_records WHERE organisation_id = $1 AND automation_id = $2::uuid) AS total,
  COALESCE((SELECT json_agg(json_build_object('actionId', id, 'position', position) ORDER BY position)
    FROM automation_actions WHERE organisation_id = $1 AND automation_id = $2::uuid), '[]'::json) AS sequence,
  COALESCE((SELECT json_agg(json_build_object('eventId', x.event_id, 'records', x.records) ORDER BY x.event_id ${direction}) FROM (
    SELECT p.event_id, json_agg(json_build_object(
        'id', r.id, 'actionId', r.action_id, 'adaptor', r.adaptor, 'adaptorAction', r.adaptor_action, 'status', r.status,
        'attributes', r.attributes, 'eventType', r.event_type, 'entityType', r.entity_type, 'entityId', r.entity_id,
        'entityReference', r.entity_reference, 'workflowId', r.workflow_id, 'createdMs', ${ms('r.created_at')}, 'updatedMs', ${ms('r.updated_at')}
      ) ORDER BY r.created_at, s.position NULLS LAST, r.id) AS records
    FROM page p
    JOIN adaptor_action_records r ON r.organisation_id = $1 AND r.automation_id = $2::uuid AND r.event_id = p.event_id
    LEFT JOIN automation_actions s ON s.organisation_id = $1 AND s.id = r.action_id
    GROUP BY p.event_id) x), '[]'::json) AS runs
FROM (SELECT 1) one`;

const STATEMENTS = { ASC: pageStatement('ASC'), DESC: pageStatement('DESC') };

export interface RunPageArgs {
  skip: number;
  take: number;
  /** Newest event first (DESC, the default) or oldest first. */
  direction: 'ASC' | 'DESC';
}

/** One page of the automation's runs; 404 for an automation that is not (or no longer) the organisation's. */
export async function listRuns(sql: OrgSql, automationId: string, page: RunPageArgs): Promise<{ rows: AutomationRun[]; total: number }> {
  const [row] = await sql.rows<PageRow>(STATEMENTS[page.direction], [automationId, page.take, page.skip]);
  if (row.changedMs === null) throw notFound('Automation');
  const positions = new Map(row.sequence.map((s) => [s.actionId, s.position]));
  const last = Math.max(0, ...row.sequence.map((s) => s.position));
  const rows = row.runs.map(({ eventId, records }) => runOf(eventId, records, { changedMs: Number(row.changedMs), positions, last }));
  return { rows, total: row.total };
}

interface Sequence {
  /** When the automation last changed (a new sequence, a rename, a state): ms. */
  changedMs: number;
  positions: Map<string, number>;
  last: number;
}

function runOf(eventId: string, records: RecordRow[], sequence: Sequence): AutomationRun {
  const first = records[0];
  const steps = records.map((r, i): RunStep => {
    const attributes = Array.isArray(r.attributes) ? r.attributes : [];
    return {
      order: i + 1, recordId: r.id, actionId: r.actionId, adaptor: r.adaptor, adaptorAction: r.adaptorAction,
      status: r.status, reason: recordReason(r.status, attributes), attributes, createdAt: new Date(Number(r.createdMs)),
    };
  });
  const { state, reason } = stateOf(steps, Number(first.createdMs), sequence);
  return {
    eventId,
    eventType: first.eventType,
    occurredAt: new Date(uuidV7Ms(eventId) ?? Number(first.createdMs)),
    entity: { type: first.entityType, id: first.entityId, reference: first.entityReference },
    state,
    reason,
    workflowId: first.workflowId,
    startedAt: new Date(Number(first.createdMs)),
    updatedAt: new Date(Math.max(...records.map((r) => Number(r.updatedMs)))),
    steps,
  };
}

/**
 * A run stops at a FAILED action or a REJECTED approval and waits at a PENDING one; otherwise it
 * is RUNNING while the sequence it started with has actions after the last one it recorded. That
 * sequence is the automation's current one only when the automation has not changed since the
 * run's first record; when it has, what the records say is all that is known (COMPLETED, or
 * SKIPPED when every action was skipped).
 */
function stateOf(steps: RunStep[], startedMs: number, sequence: Sequence): { state: RunState; reason: string | null } {
  const stopped = steps.find((s) => s.status === 'FAILED') ?? steps.find((s) => s.status === 'REJECTED');
  if (stopped) return { state: stopped.status === 'FAILED' ? 'FAILED' : 'REJECTED', reason: stopped.reason };
  if (steps.some((s) => s.status === 'PENDING')) return { state: 'WAITING_FOR_APPROVAL', reason: null };
  const reached = sequence.positions.get(steps[steps.length - 1].actionId);
  const unchanged = sequence.changedMs <= startedMs;
  if (unchanged && reached !== undefined && reached < sequence.last) return { state: 'RUNNING', reason: null };
  return { state: steps.every((s) => s.status === 'SKIPPED') ? 'SKIPPED' : 'COMPLETED', reason: null };
}

/** The millisecond a UUIDv7 was made (its first 48 bits); undefined for another version. */
export function uuidV7Ms(id: string): number | undefined {
  const hex = id.replace(/-/g, '');
  if (hex[12] !== '7') return undefined;
  return parseInt(hex.slice(0, 12), 16);
}
