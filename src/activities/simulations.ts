// The replay of a HISTORY simulation (docs/automations.md "Simulations"). One activity pages
// through the window by keyset; each page is judged in a read-only transaction (nothing it
// reaches can write) and checkpointed into the simulation's row in a transaction of its own,
// conditionally on the row as read, so a retry after a crash resumes at the row's cursor and
// counts no event twice. It heartbeats its progress; a cancel (the row CANCELLED) stops it at the
// next page.
import { Context } from '@temporalio/activity';
import type { AutomationSimulation } from '../db/client';
import { readOnlyTransaction } from '../db/read-only';
import { pgSql } from '../db/sql';
import { scopedClient } from '../db/tenancy';
import type { RunPlan as StoredPlan } from '../domain/automations/definitions';
import { AppError } from '../domain/errors';
import { judgeEvent, type RunVerdict } from '../domain/automations/simulation';
import { countWindow, windowPage, type Cursor } from '../domain/automations/simulation-events';
import { savePage, settleSimulation } from '../domain/automations/simulations';
import type { SimulationOutcome, SimulationRef } from '../workflows/contracts';
import type { ActivityDeps } from './deps';
import { checkIds, notOwned } from './ownership';
import { inOrgTransaction } from './transaction';

export function simulationActivities(deps: Pick<ActivityDeps, 'db' | 'pool' | 'config'>) {
  const size = deps.config.SIMULATION_PAGE_EVENTS;

  async function load(ref: SimulationRef): Promise<AutomationSimulation> {
    checkIds({ organisationId: ref.organisationId, simulationId: ref.simulationId });
    const row = await scopedClient(deps.db, ref.organisationId).automationSimulation.findFirst({ where: { organisationId: ref.organisationId, id: ref.simulationId } });
    if (!row) throw notOwned('simulation', ref.simulationId, ref.organisationId);
    return row;
  }

  /**
   * The page after `cursor`, judged; an event that names no record of the entity (a run refuses it)
   * is left out. The page is read on pg directly (through Prisma's raw query the 100,000-event
   * replay of bench/simulation.ts took 52.6 s instead of 18.1 s); the judging, which runs the
   * performers' code, in the read-only transaction.
   */
  async function judgePage(row: AutomationSimulation, cursor: Cursor | null) {
    const plan = row.plan as unknown as StoredPlan;
    const page = await windowPage(pgSql(deps.pool, row.organisationId), row.eventType, row.fromDate, row.toDate, cursor, size);
    return readOnlyTransaction(deps.db, row.organisationId, async (tx, sql) => {
      const memo = new Map<string, Promise<unknown>>();
      const verdicts: RunVerdict[] = [];
      for (const event of page.events) {
        try {
          verdicts.push(await judgeEvent(tx, sql, row.organisationId, event, plan, memo));
        } catch (err) {
          if (!(err instanceof AppError) || err.attribute !== 'entity_id') throw err;
        }
      }
      return { verdicts, next: page.next };
    });
  }

  return {
    async replaySimulation(ref: SimulationRef): Promise<SimulationOutcome> {
      let row = await load(ref);
      if (row.state !== 'RUNNING') return 'ALREADY_DONE';
      const org = ref.organisationId;
      if (row.eventsTotal === null) {
        const total = await countWindow(pgSql(deps.pool, org), row.eventType, row.fromDate, row.toDate);
        await scopedClient(deps.db, org).automationSimulation.updateMany({ where: { organisationId: org, id: row.id, eventsTotal: null }, data: { eventsTotal: total } });
        row = await load(ref);
      }
      for (;;) {
        if (row.state !== 'RUNNING') return row.state as SimulationOutcome;
        // Its workflow cancelled in the Temporal UI: the settlement marks the row.
        if (Context.current().cancellationSignal.aborted) return 'CANCELLED';
        const { verdicts, next } = await judgePage(row, row.cursor as unknown as Cursor | null);
        if (!next) {
          await inOrgTransaction(deps.db, org, (tx) => settleSimulation(tx, org, row.id, 'COMPLETED'));
          return (await load(ref)).state as SimulationOutcome;
        }
        const state = await inOrgTransaction(deps.db, org, (tx) => savePage(tx, row, verdicts, next));
        if (state && state !== 'RUNNING') return state as SimulationOutcome;
        row = await load(ref);
        Context.current().heartbeat(row.eventsDone);
      }
    },

    /** The replay's refusal or its last failed attempt: FAILED with the reason, unless the row was settled first. */
    async failSimulation(ref: SimulationRef, error: string): Promise<void> {
      checkIds({ organisationId: ref.organisationId, simulationId: ref.simulationId });
      // No row (its automation deleted, or a forged id): nothing to settle.
      await inOrgTransaction(deps.db, ref.organisationId, (tx) => settleSimulation(tx, ref.organisationId, ref.simulationId, 'FAILED', error.slice(0, 2000)));
    },
  };
}
