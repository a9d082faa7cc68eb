/**
 * Activity implementations. Built from explicit dependencies so the API process and a
 * standalone worker wire the same code to their own resources.
 */
import { testGateway } from '../payments/gateway';
import type { ActivityDeps } from './deps';
import { automationActivities } from './automations';
import { planActivities } from './communication-plans';
import { communicationActivities } from './communications';
import { ledgerActivities, topupActivities } from './ledger';
import { reportActivities } from './reports';
import { retentionActivities } from './retention';
import { simulationActivities } from './simulations';
import { terminationActivities } from './termination';
import { webhookActivities } from './webhooks';

export type { ActivityDeps };

export function createActivities(deps: ActivityDeps) {
  return {
    ...ledgerActivities(deps.db),
    ...terminationActivities(deps.db),
    ...topupActivities(deps.db, deps.gateway ?? testGateway),
    ...communicationActivities(deps),
    ...planActivities(deps.db),
    ...webhookActivities(deps),
    ...automationActivities(deps),
    ...simulationActivities(deps),
    ...reportActivities(deps),
    ...retentionActivities(deps),
    /** Health/smoke check: proves a worker is polling and activities run. */
    async ping(name: string): Promise<string> {
      return `pong: ${name}`;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
