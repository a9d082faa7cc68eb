// HISTORY simulations (docs/automations.md "Simulations"): a row per replay, its workflow's intent
// written with it, and the progress each page of the replay checkpoints into it. The row is the
// replay's only write; what it judges is judged in read-only transactions (./simulation.ts).
import type { AutomationSimulation, Prisma, Tx } from '../../db/client';
import { txSql } from '../../db/sql';
import { recordIntent } from '../../temporal/intents';
import { simulationWorkflowId } from '../../workflows/contracts';
import { audit, type AuditActor } from '../audit';
import { found } from '../errors';
import { newId } from '../ids';
import { pageOf, type ListArgs, type ListPage } from '../lists';
import { getAutomation } from './definitions';
import type { Cursor } from './simulation-events';
import { storedPlan, type RunVerdict } from './simulation';

export const MAX_SAMPLES = 20;

export type SimulationState = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';

/** The summary as the row keeps it: maps by action id and by day, so that merging a page is adding. */
export interface StoredSummary {
  events: number;
  would_run: number;
  by_action: Record<string, { order: number; adaptor_action: string; would_run: number; skipped: number; would_fail: number; skip_reasons: Record<string, number> }>;
  by_day: Record<string, { events: number; would_run: number }>;
}

const emptySummary = (): StoredSummary => ({ events: 0, would_run: 0, by_action: {}, by_day: {} });

/**
 * The row RUNNING, with the automation's sequence as saved now, and its workflow's intent, on the
 * caller's transaction. `to` is the window's inclusive last second.
 */
export async function createSimulation(tx: Tx, actor: AuditActor, automationId: string, from: number, to: number): Promise<{ id: string }> {
  const { organisationId } = actor;
  const sql = txSql(tx, organisationId);
  const plan = await storedPlan(sql, automationId);
  const id = newId();
  await tx.automationSimulation.create({
    data: {
      id, organisationId, automationId, eventType: plan.automation.event, plan: plan as unknown as Prisma.InputJsonValue,
      fromDate: new Date(from * 1000), toDate: new Date((to + 1) * 1000), summary: emptySummary() as unknown as Prisma.InputJsonValue,
      requestedBy: `${actor.actorType}:${actor.actorId}`,
    },
  });
  await audit(tx, actor, { action: 'SIMULATE', entityType: 'automation', entityId: automationId, changes: { simulation_id: id, from_date: from, to_date: to } });
  await recordIntent(sql, {
    kind: 'start', workflow: 'automationSimulationWorkflow', workflowId: simulationWorkflowId(id),
    input: { organisationId, simulationId: id }, search: { automationId },
  });
  return { id };
}

/** The automation's simulation, or 404 (another automation's or organisation's too). */
export async function getSimulation(tx: Tx, organisationId: string, automationId: string, id: string): Promise<AutomationSimulation> {
  return found(await tx.automationSimulation.findFirst({ where: { organisationId, automationId, id } }), 'Simulation');
}

export async function listSimulations(tx: Tx, organisationId: string, automationId: string, args: ListArgs): Promise<ListPage<AutomationSimulation>> {
  await getAutomation(tx, organisationId, automationId);
  const where = { organisationId, automationId };
  return pageOf(tx.automationSimulation.findMany({ where, ...args }), tx.automationSimulation.count({ where }));
}

/**
 * CANCELLED, conditionally on RUNNING: the replay sees it at its next page and stops. The
 * database is the truth, so no signal is needed, and a worker that is down meanwhile finds the row
 * cancelled when it comes back. A replay that already ended keeps its state: answered, as a
 * repeated cancel is (so a cancel that crosses the replay's end is no error).
 */
export async function cancelSimulation(tx: Tx, actor: AuditActor, automationId: string, id: string): Promise<SimulationState> {
  const current = await getSimulation(tx, actor.organisationId, automationId, id);
  const { count } = await tx.automationSimulation.updateMany({
    where: { organisationId: actor.organisationId, id, state: 'RUNNING' },
    data: { state: 'CANCELLED', error: `cancelled by ${actor.actorType}:${actor.actorId}`, completedAt: new Date() },
  });
  if (!count) return current.state as SimulationState;
  await audit(tx, actor, { action: 'CANCEL_SIMULATION', entityType: 'automation', entityId: automationId, changes: { simulation_id: id } });
  return 'CANCELLED';
}

/** Ends a RUNNING row (the replay's end, its failure, or its workflow closed from outside); a settled row stays as it is. */
export async function settleSimulation(tx: Tx, organisationId: string, id: string, state: Exclude<SimulationState, 'RUNNING'>, error: string | null = null): Promise<boolean> {
  const { count } = await tx.automationSimulation.updateMany({ where: { organisationId, id, state: 'RUNNING' }, data: { state, error, completedAt: new Date() } });
  return count > 0;
}

/** The page's verdicts added to the stored summary (pure). */
export function addVerdicts(summary: StoredSummary, verdicts: RunVerdict[]): StoredSummary {
  const out: StoredSummary = structuredClone(summary);
  for (const v of verdicts) {
    out.events += 1;
    if (v.would_run) out.would_run += 1;
    const day = String(Math.floor(v.event.occurred_on / 86_400) * 86_400);
    const d = (out.by_day[day] ??= { events: 0, would_run: 0 });
    d.events += 1;
    if (v.would_run) d.would_run += 1;
    for (const a of v.actions) {
      const s = (out.by_action[a.id] ??= { order: a.order, adaptor_action: a.adaptor_action, would_run: 0, skipped: 0, would_fail: 0, skip_reasons: {} });
      if (a.verdict === 'WOULD_RUN') s.would_run += 1;
      else if (a.verdict === 'WOULD_FAIL') s.would_fail += 1;
      else s.skipped += 1;
      if (a.verdict !== 'WOULD_RUN' && a.reason) s.skip_reasons[a.reason] = (s.skip_reasons[a.reason] ?? 0) + 1;
    }
  }
  return out;
}

/**
 * One page's checkpoint: the summary, the samples, the count and the cursor, conditionally on the
 * row being as it was read (RUNNING, `updatedAt`), so a page is never counted twice. Answers the
 * row's state after it; null when the row moved meanwhile (the caller reads it again).
 */
export async function savePage(tx: Tx, row: AutomationSimulation, verdicts: RunVerdict[], next: Cursor): Promise<SimulationState | null> {
  const samples = row.samples as unknown as RunVerdict[];
  const { count } = await tx.automationSimulation.updateMany({
    where: { organisationId: row.organisationId, id: row.id, state: 'RUNNING', updatedAt: row.updatedAt },
    data: {
      eventsDone: row.eventsDone + verdicts.length,
      cursor: next as unknown as Prisma.InputJsonValue,
      summary: addVerdicts(row.summary as unknown as StoredSummary, verdicts) as unknown as Prisma.InputJsonValue,
      samples: [...samples, ...verdicts.slice(0, Math.max(0, MAX_SAMPLES - samples.length))] as unknown as Prisma.InputJsonValue,
    },
  });
  if (count) return 'RUNNING';
  const now = await tx.automationSimulation.findFirst({ where: { organisationId: row.organisationId, id: row.id }, select: { state: true } });
  return now && now.state !== 'RUNNING' ? (now.state as SimulationState) : null;
}
