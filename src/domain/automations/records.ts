// Adaptor action records (spec 2.8, 4.6; docs/automations.md "Records"): what one action of one
// automation run did. The run workflow writes them (createRecord); the API lists and reads them,
// and changes one attribute: the decision of a pending approval, or free notes.
import type { AdaptorActionRecord, Prisma, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { recordIntent } from '../../temporal/intents';
import { audit, type AuditActor } from '../audit';
import { conflict, found, invalid } from '../errors';
import { isId, newId, normaliseId } from '../ids';
import { pageOf, within, type ListArgs, type ListPage } from '../lists';

export const RECORD_STATUSES = ['PENDING', 'COMPLETED', 'FAILED', 'SKIPPED', 'APPROVED', 'REJECTED'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];
export type DecisionStatus = 'APPROVED' | 'REJECTED';

export interface RecordAttribute {
  id: string;
  key: string;
  label: string;
  /** STRING, NUMBER, DATE (epoch seconds), BOOLEAN: how to read `value`. */
  type: string;
  /** Text, whatever the type (a DATE is its epoch seconds as text). */
  value: string;
}

/** One record attribute with a new id. */
export function recordAttribute(key: string, label: string, type: string, value: string): RecordAttribute {
  return { id: newId(), key, label, type, value };
}

export interface NewRecord {
  automationId: string;
  automationName: string;
  actionId: string;
  adaptor: string;
  adaptorAction: string;
  eventId: string;
  eventType: string;
  entityType: string;
  entityId: string;
  entityReference?: string | null;
  status: RecordStatus;
  attributes: RecordAttribute[];
  workflowId: string;
}

/**
 * The record of this event, automation and action: inserted when there is none (a retried
 * activity finds the first one and must not act twice), then read.
 */
export async function createRecord(tx: Tx, organisationId: string, input: NewRecord): Promise<AdaptorActionRecord> {
  const key = { eventId: input.eventId, automationId: input.automationId, actionId: input.actionId };
  await tx.adaptorActionRecord.createMany({
    data: [{ ...input, id: newId(), organisationId, entityReference: input.entityReference ?? null, attributes: input.attributes as unknown as Prisma.InputJsonValue }],
    skipDuplicates: true,
  });
  const row = await tx.adaptorActionRecord.findFirst({ where: { organisationId, ...key } });
  if (!row) throw new Error('adaptor action record vanished after its insert');
  return row;
}

/** The API's shape of a record (GET .../records/{record_id}); also the lead's webhook payloads. */
export function presentRecord(r: AdaptorActionRecord) {
  return {
    id: r.id,
    automation: { id: r.automationId, name: r.automationName },
    automation_action_id: r.actionId,
    adaptor: r.adaptor,
    adaptor_action: r.adaptorAction,
    event: { id: r.eventId, type: r.eventType },
    entity: { type: r.entityType, id: r.entityId, reference: r.entityReference },
    status: r.status as RecordStatus,
    reason: recordReason(r.status, attributesOf(r)),
    record_attributes: attributesOf(r),
    workflow_id: r.workflowId,
    created_on: Math.floor(r.createdAt.getTime() / 1000),
    updated_on: Math.floor(r.updatedAt.getTime() / 1000),
  };
}

const attributesOf = (r: AdaptorActionRecord): RecordAttribute[] => (Array.isArray(r.attributes) ? (r.attributes as unknown as RecordAttribute[]) : []);

const UNDONE: ReadonlySet<string> = new Set(['SKIPPED', 'FAILED', 'REJECTED']);

/**
 * Why an action did not do its work (SKIPPED, FAILED, REJECTED): its `reason` attribute (filters
 * not met, an approval's timeout), else its `error` (a business refusal, an opted-out contact);
 * null otherwise. Read from the attributes, so records written before it have one too.
 */
export function recordReason(status: string, attributes: readonly RecordAttribute[]): string | null {
  if (!UNDONE.has(status)) return null;
  const value = (key: string) => attributes.find((a) => a.key === key)?.value;
  return value('reason') ?? value('error') ?? null;
}

/** The adaptor and action of the path, as catalogue codes. */
export interface RecordScope {
  adaptor: string;
  adaptorAction: string;
}

export interface RecordFilter {
  searchType?: string;
  searchValue?: string;
  automationId?: string;
  actionId?: string;
  status?: RecordStatus;
}

export async function listRecords(tx: Tx, organisationId: string, scope: RecordScope, q: RecordFilter, args: ListArgs): Promise<ListPage<AdaptorActionRecord>> {
  const where: Prisma.AdaptorActionRecordWhereInput = {
    organisationId, ...scope, automationId: q.automationId, actionId: q.actionId, status: q.status,
  };
  if (q.searchType !== undefined && q.searchValue !== undefined) {
    where.entityType = q.searchType;
    if (isId(q.searchValue)) where.entityId = normaliseId(q.searchValue);
    else where.entityReference = within(q.searchValue);
  }
  return pageOf(tx.adaptorActionRecord.findMany({ where, ...args }), tx.adaptorActionRecord.count({ where }));
}

/** The record, when it is one of the path's adaptor action; 404 otherwise (or another organisation's). */
export async function getRecord(tx: Tx, organisationId: string, scope: RecordScope, id: string): Promise<AdaptorActionRecord> {
  return found(await tx.adaptorActionRecord.findFirst({ where: { organisationId, id, ...scope } }), 'Adaptor action record');
}

export const NOTES_MAX = 2000;

/**
 * POST .../records/{record_id} {key, value}. `status` decides a PENDING approval (REQUEST_APPROVAL
 * records only) and records the signal to the waiting run; `notes` sets the record's notes.
 */
export async function changeRecord(tx: Tx, actor: AuditActor, scope: RecordScope, id: string, key: string, value: string): Promise<void> {
  const { organisationId } = actor;
  await tx.$queryRaw`SELECT id FROM adaptor_action_records WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const record = await getRecord(tx, organisationId, scope, id);
  const attributes = attributesOf(record);

  if (key === 'notes') {
    if (value.length > NOTES_MAX) throw invalid('value', `value: notes are at most ${NOTES_MAX} characters`);
    await tx.adaptorActionRecord.update({ where: { id }, data: { attributes: withAttribute(attributes, 'notes', 'Notes', 'STRING', value) } });
    await audit(tx, actor, { action: 'UPDATE', entityType: 'adaptor_action_record', entityId: id, changes: { key } });
    return;
  }
  if (key !== 'status' || record.adaptorAction !== 'REQUEST_APPROVAL') {
    const allowed = record.adaptorAction === 'REQUEST_APPROVAL' ? 'status or notes' : 'notes';
    throw invalid('key', `key: this record takes ${allowed}`);
  }
  if (value !== 'APPROVED' && value !== 'REJECTED') throw invalid('value', 'value: APPROVED or REJECTED');
  const refused = () => conflict('INVALID_STATE_TRANSITION', `The approval is ${record.status}: only a PENDING approval can be decided`);
  if (record.status !== 'PENDING') throw refused();
  let next = withAttribute(attributes, 'status', 'Status', 'STRING', value);
  next = withAttribute(next as unknown as RecordAttribute[], 'decided_on', 'Decided on', 'DATE', String(Math.floor(Date.now() / 1000)));
  // Conditional on PENDING: a timeout that decided first (the run workflow) keeps its decision.
  const { count } = await tx.adaptorActionRecord.updateMany({ where: { organisationId, id, status: 'PENDING' }, data: { status: value, attributes: next } });
  if (count === 0) throw refused();
  await audit(tx, actor, { action: 'DECIDE', entityType: 'adaptor_action_record', entityId: id, changes: { status: value } });
  // The database is the truth: the run re-reads the record when its wait ends, so a signal that
  // finds the run gone (the dispatcher counts that as done) loses nothing.
  await recordIntent(txSql(tx, organisationId), {
    kind: 'signal', workflowId: record.workflowId, signal: 'approvalDecided', signalArgs: [{ recordId: id, status: value }],
  });
}

/** The attributes with `key` set to `value` (replaced in place, or appended). */
function withAttribute(attributes: RecordAttribute[], key: string, label: string, type: string, value: string): Prisma.InputJsonValue {
  const found = attributes.some((a) => a.key === key);
  const next = found ? attributes.map((a) => (a.key === key ? { ...a, value } : a)) : [...attributes, recordAttribute(key, label, type, value)];
  return next as unknown as Prisma.InputJsonValue;
}

/**
 * The approvals still PENDING among `where` become REJECTED with `reason` (a `reason` attribute):
 * the wait timed out, or the run's workflow was ended by an operator. Conditional on PENDING, so
 * a decision that got there first keeps it. Answers how many it rejected.
 */
export async function rejectPendingApprovals(
  tx: Tx, organisationId: string, where: { id?: string; automationId?: string; eventId?: string }, reason: string,
): Promise<number> {
  const pending = await tx.adaptorActionRecord.findMany({ where: { organisationId, ...where, adaptorAction: 'REQUEST_APPROVAL', status: 'PENDING' } });
  let rejected = 0;
  for (const record of pending) {
    const attributes = withAttribute(attributesOf(record), 'status', 'Status', 'STRING', 'REJECTED') as unknown as RecordAttribute[];
    const next = withAttribute(attributes, 'reason', 'Reason', 'STRING', reason);
    const { count } = await tx.adaptorActionRecord.updateMany({ where: { organisationId, id: record.id, status: 'PENDING' }, data: { status: 'REJECTED', attributes: next } });
    rejected += count;
  }
  return rejected;
}
