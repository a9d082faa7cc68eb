// Activities of the communication-plan workflow (docs/communications.md "Plans"): where the plan
// stands now, and writing a tick's communications. Sending them is sendTickCommunications
// (./communications.ts).
import { Context } from '@temporalio/activity';
import type { Db, Tx } from '../db/client';
import { txSql } from '../db/sql';
import { scopedClient } from '../db/tenancy';
import { createTickCommunications } from '../domain/communications/plan-tick';
import { getPlan } from '../domain/communications/plans';
import { planSchedule, type ScheduleState } from '../domain/communications/schedule';
import type { TickInput } from './communications';
import { checkIds } from './ownership';
import type { PlanRef } from '../workflows/contracts';

/** Why the workflow ends, or the tick due now and the next one. */
export type PlanStatus = { ended: 'DELETED' | 'DRAFT' | 'FINISHED' } | ({ ended?: undefined } & ScheduleState);

export function planActivities(db: Db) {
  // A plan not found ends its workflow (DELETED): a deleted plan's and another organisation's look alike, and neither is acted on.
  const plan = async (input: PlanRef) => {
    checkIds({ organisationId: input.organisationId, planId: input.planId });
    const tx = scopedClient(db, input.organisationId) as unknown as Tx;
    return getPlan(tx, input.organisationId, input.planId).catch((err) => {
      if (err?.code === 'NOT_FOUND') return null;
      throw err;
    });
  };
  return {
    /** Read on each wake: the schedule and state are the plan's as it is now. */
    async planStatus(input: PlanRef & { lastTick: number | null }): Promise<PlanStatus> {
      const p = await plan(input);
      if (!p) return { ended: 'DELETED' };
      if (p.lifeCycleState !== 'POSTED' || !p.postedAt) return { ended: 'DRAFT' };
      const state = planSchedule({ frequency: p.frequency, startDate: p.startDate, endDate: p.endDate, scheduledFrom: p.postedAt }, input.lastTick, Date.now());
      if (state.due === null && state.next === null) return { ended: 'FINISHED' };
      return state;
    },

    /** Writes the tick's communications PENDING; 0 when the plan is gone or back in DRAFT. */
    async createTickCommunications(input: TickInput): Promise<number> {
      const p = await plan(input);
      if (!p || p.lifeCycleState !== 'POSTED') return 0;
      const tx = scopedClient(db, input.organisationId) as unknown as Tx;
      return createTickCommunications(tx, txSql(tx, input.organisationId), p, input.tick, () => Context.current().heartbeat());
    },
  };
}
