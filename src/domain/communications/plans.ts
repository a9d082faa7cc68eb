// Communication plans (spec 2.10; docs/communications.md "Plans"). The rows only: the plan
// workflow (src/workflows/index.ts) reads them at each tick, and the route signals it after a
// write commits.
import type { Prisma, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { recordIntent } from '../../temporal/intents';
import { planWorkflowId } from '../../workflows/contracts';
import { audit, type AuditActor } from '../audit';
import { forbidden, found, invalid, notFound } from '../errors';
import { newId } from '../ids';
import { nameCodeWhere, pageOf, type ListArgs, type ListPage } from '../lists';
import type { Channel } from './integration-settings';
import type { LanguageContent } from './render';
import { getLimits } from './quotas';
import { planSchedule, ticksCloserThan } from './schedule';
import type { PlanInput, PlanPatch } from './types';

export type PlanState = 'DRAFT' | 'POSTED';

const INCLUDE = {
  segments: { orderBy: { position: 'asc' }, include: { segment: { select: { id: true, name: true } } } },
  integrations: { include: { integration: { select: { id: true, name: true, channel: true, createdAt: true } } } },
} satisfies Prisma.CommunicationPlanInclude;
export type PlanRecord = Prisma.CommunicationPlanGetPayload<{ include: typeof INCLUDE }>;

const ENTITY = 'communication_plan';

export interface PlanFilter {
  name?: string;
  lifeCycleState?: PlanState;
}

/** Who writes a plan: a public key's POSTED plan ticks no more often than the organisation's floor. */
export interface PlanWriter {
  publicKey?: boolean;
}

async function checkPublicFrequency(tx: Tx, organisationId: string, writer: PlanWriter, state: PlanState, frequency: string): Promise<void> {
  if (!writer.publicKey || state !== 'POSTED') return;
  const { public_plan_min_interval_minutes: minutes } = await getLimits(tx, organisationId);
  if (ticksCloserThan(frequency, minutes)) {
    throw forbidden(`frequency: a plan a public key posts ticks at most once every ${minutes} minutes (the organisation's public_plan_min_interval_minutes); use a secret key`, 'frequency');
  }
}

export async function createPlan(tx: Tx, actor: AuditActor, input: PlanInput, writer: PlanWriter = {}): Promise<{ id: string; state: PlanState }> {
  const { organisationId } = actor;
  const state = input.life_cycle_state ?? 'DRAFT';
  await checkPublicFrequency(tx, organisationId, writer, state, input.frequency);
  const channels = await checkPlan(tx, organisationId, { ...input, end_date: input.end_date ?? null, integrations: input.integrations ?? [] });
  const id = newId();
  await tx.communicationPlan.create({
    data: {
      id,
      organisationId,
      name: input.name,
      startDate: new Date(input.start_date * 1000),
      endDate: input.end_date != null ? new Date(input.end_date * 1000) : null,
      preferredChannel: input.preferred_channel,
      frequency: input.frequency,
      contents: input.contents as Prisma.InputJsonValue,
      lifeCycleState: state,
      postedAt: state === 'POSTED' ? new Date() : null,
    },
  });
  await writeLinks(tx, organisationId, id, input.segments, input.integrations ?? [], channels, false);
  await audit(tx, actor, { action: 'CREATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(input), life_cycle_state: state } });
  if (state === 'POSTED') await recordPlanChange(tx, organisationId, id, state);
  return { id, state };
}

/** The plan, or 404 (also for another organisation's id). */
export async function getPlan(tx: Tx, organisationId: string, id: string): Promise<PlanRecord> {
  return found(await tx.communicationPlan.findFirst({ where: { organisationId, id }, include: INCLUDE }), 'Communication plan');
}

export async function listPlans(tx: Tx, organisationId: string, args: ListArgs, q: PlanFilter): Promise<ListPage<PlanRecord>> {
  const where: Prisma.CommunicationPlanWhereInput = { organisationId, lifeCycleState: q.lifeCycleState, ...nameCodeWhere(q) };
  return pageOf(tx.communicationPlan.findMany({ where, include: INCLUDE, ...args }), tx.communicationPlan.count({ where }));
}

/**
 * Partial. A move to POSTED, or a schedule change (frequency, start or end date) while POSTED,
 * restarts the count of ticks from now: ticks before it are not sent.
 */
export async function updatePlan(tx: Tx, actor: AuditActor, id: string, patch: PlanPatch, writer: PlanWriter = {}): Promise<{ state: PlanState }> {
  const { organisationId } = actor;
  await tx.$queryRaw`SELECT id FROM communication_plans WHERE organisation_id = ${organisationId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  const current = await getPlan(tx, organisationId, id);
  const state = patch.life_cycle_state ?? (current.lifeCycleState as PlanState);
  // Whatever the public key changed, the plan it leaves POSTED must respect the floor.
  await checkPublicFrequency(tx, organisationId, writer, state, patch.frequency ?? current.frequency);
  const merged = {
    start_date: patch.start_date ?? Math.floor(current.startDate.getTime() / 1000),
    end_date: patch.end_date !== undefined ? patch.end_date : current.endDate ? Math.floor(current.endDate.getTime() / 1000) : null,
    preferred_channel: patch.preferred_channel ?? (current.preferredChannel as Channel),
    contents: patch.contents ?? (current.contents as unknown as LanguageContent[]),
    segments: patch.segments ?? current.segments.map((s) => s.segmentId),
    integrations: patch.integrations ?? current.integrations.map((i) => i.integrationId),
  };
  const channels = await checkPlan(tx, organisationId, merged);
  const rescheduled = patch.frequency !== undefined || patch.start_date !== undefined || patch.end_date !== undefined;
  const posting = state === 'POSTED' && (current.lifeCycleState !== 'POSTED' || rescheduled);
  await tx.communicationPlan.update({
    where: { id },
    data: {
      name: patch.name,
      startDate: patch.start_date !== undefined ? new Date(patch.start_date * 1000) : undefined,
      endDate: patch.end_date !== undefined ? (patch.end_date === null ? null : new Date(patch.end_date * 1000)) : undefined,
      preferredChannel: patch.preferred_channel,
      frequency: patch.frequency,
      contents: patch.contents as Prisma.InputJsonValue | undefined,
      lifeCycleState: state,
      postedAt: posting ? new Date() : undefined,
    },
  });
  if (patch.segments || patch.integrations) await writeLinks(tx, organisationId, id, patch.segments, patch.integrations, channels, true);
  await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { fields: Object.keys(patch), life_cycle_state: state } });
  await recordPlanChange(tx, organisationId, id, state);
  return { state };
}

/**
 * Its communications stay (history) without the link; those of a tick still being sent are
 * marked FAILED, since the workflow ends with the plan.
 */
export async function deletePlan(tx: Tx, actor: AuditActor, id: string): Promise<void> {
  const { organisationId } = actor;
  const current = await getPlan(tx, organisationId, id);
  await tx.communication.updateMany({
    where: { organisationId, planId: id, lifeCycleState: 'PENDING' },
    data: { lifeCycleState: 'FAILED', failureReason: 'the plan was deleted before this was sent' },
  });
  await tx.communicationPlan.delete({ where: { id } });
  await audit(tx, actor, { action: 'DELETE', entityType: ENTITY, entityId: id, changes: { name: current.name } });
  await recordPlanChange(tx, organisationId, id, 'DELETED');
}

/**
 * Every plan write tells its workflow, in the write's transaction: a POSTED plan's workflow is
 * started or woken (signal-with-start), any other's is woken, so it ends.
 */
async function recordPlanChange(tx: Tx, organisationId: string, planId: string, state: PlanState | 'DELETED'): Promise<void> {
  const workflowId = planWorkflowId(planId);
  const sql = txSql(tx, organisationId);
  if (state === 'POSTED') {
    await recordIntent(sql, {
      kind: 'signalWithStart', workflow: 'communicationPlanWorkflow', workflowId, input: { organisationId, planId },
      signal: 'planChanged', signalArgs: [], search: { entityType: 'COMMUNICATION_PLANS', entityId: planId },
    });
    return;
  }
  await recordIntent(sql, { kind: 'signal', workflowId, signal: 'planChanged', signalArgs: [] });
}

/**
 * A POSTED plan whose workflow an operator ended goes back to DRAFT: it sends no more ticks, and
 * posting it again starts it anew. Not when it was posted again after that end (`closedAt`).
 */
export async function draftAfterWorkflowEnded(tx: Tx, actor: AuditActor, id: string, closedAt: Date, reason: string): Promise<boolean> {
  const { count } = await tx.communicationPlan.updateMany({
    where: { organisationId: actor.organisationId, id, lifeCycleState: 'POSTED', postedAt: { lte: closedAt } },
    data: { lifeCycleState: 'DRAFT' },
  });
  if (count) await audit(tx, actor, { action: 'UPDATE', entityType: ENTITY, entityId: id, changes: { life_cycle_state: 'DRAFT', reason } });
  return count > 0;
}

/** Epoch ms of the next tick of a POSTED plan; null when DRAFT or past its end. */
export function nextTick(plan: Pick<PlanRecord, 'lifeCycleState' | 'frequency' | 'startDate' | 'endDate' | 'postedAt'>, now = Date.now()): number | null {
  if (plan.lifeCycleState !== 'POSTED' || !plan.postedAt) return null;
  return planSchedule({ frequency: plan.frequency, startDate: plan.startDate, endDate: plan.endDate, scheduledFrom: plan.postedAt }, null, now).next;
}

interface Checked {
  start_date: number;
  end_date: number | null;
  preferred_channel: Channel;
  contents: readonly LanguageContent[];
  segments: string[];
  integrations: string[];
}

/** The rules on the plan as it will be (a PUT is checked merged with the stored plan); answers each integration's channel. */
async function checkPlan(tx: Tx, organisationId: string, p: Checked): Promise<Map<string, string>> {
  if (p.end_date !== null && p.end_date <= p.start_date) throw invalid('end_date', 'end_date: must be after start_date');
  p.contents.forEach((c, i) => {
    if (p.preferred_channel === 'EMAIL' && !c.subject) throw invalid(`contents.${i}.subject`, `contents.${i}.subject: required when preferred_channel is EMAIL`);
    if (!c.plain_content && !c.rich_content) throw invalid(`contents.${i}.plain_content`, `contents.${i}.plain_content: a content needs plain_content or rich_content`);
  });
  duplicates(p.segments, 'segments');
  duplicates(p.integrations, 'integrations');
  const segments = await tx.segment.findMany({ where: { organisationId, id: { in: p.segments } }, select: { id: true } });
  const known = new Set(segments.map((s) => s.id));
  p.segments.forEach((id, i) => {
    if (!known.has(id)) throw notFound('Segment', `segments.${i}`);
  });
  const integrations = await tx.integration.findMany({ where: { organisationId, id: { in: p.integrations } }, select: { id: true, channel: true } });
  const channels = new Map(integrations.map((x) => [x.id, x.channel]));
  const seen = new Set<string>();
  p.integrations.forEach((id, i) => {
    const channel = channels.get(id);
    if (!channel) throw notFound('Integration', `integrations.${i}`);
    if (seen.has(channel)) throw invalid(`integrations.${i}`, `integrations.${i}: a second ${channel} integration (one per channel)`);
    seen.add(channel);
  });
  if (p.preferred_channel === 'SMS' && !seen.has('SMS') && !(await tx.integration.findFirst({ where: { organisationId, channel: 'SMS' }, select: { id: true } }))) {
    throw invalid('integrations', 'integrations: an SMS plan needs an SMS integration (the organisation has none)');
  }
  return channels;
}

function duplicates(ids: string[], field: string): void {
  ids.forEach((id, i) => {
    if (ids.indexOf(id) !== i) throw invalid(`${field}.${i}`, `${field}.${i}: listed twice`);
  });
}

async function writeLinks(
  tx: Tx, organisationId: string, planId: string, segments: string[] | undefined, integrations: string[] | undefined, channels: Map<string, string>, existing: boolean,
): Promise<void> {
  if (segments) {
    if (existing) await tx.communicationPlanSegment.deleteMany({ where: { organisationId, planId } });
    await tx.communicationPlanSegment.createMany({ data: segments.map((segmentId, position) => ({ organisationId, planId, segmentId, position })) });
  }
  if (integrations) {
    if (existing) await tx.communicationPlanIntegration.deleteMany({ where: { organisationId, planId } });
    await tx.communicationPlanIntegration.createMany({ data: integrations.map((integrationId) => ({ organisationId, planId, integrationId, channel: channels.get(integrationId)! })) });
  }
}
