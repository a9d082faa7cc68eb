/**
 * Activity implementations. Built from explicit dependencies so the API process and a
 * standalone worker wire the same code to their own resources.
 */
import type { Config } from '../config';
import type { Pool } from 'pg';
import type { Db } from '../db/client';
import type { Logger } from '../log';
import type { Mailer } from '../mail';
import { testGateway, type PaymentGateway } from '../payments/gateway';
import { automationActivities } from './automations';
import { planActivities } from './communication-plans';
import { communicationActivities } from './communications';
import { ledgerActivities, topupActivities } from './ledger';
import { reportActivities } from './reports';
import { retentionActivities } from './retention';
import { terminationActivities } from './termination';
import { webhookActivities } from './webhooks';

export interface ActivityDeps {
  db: Db;
  /** The same database for the run path's hand-written statements (src/db/sql.ts pgSql: prepared once per connection, no ORM). */
  pool: Pool;
  mail: Mailer;
  config: Config;
  log: Logger;
  /** The card gateway of top-ups; the built-in test gateway when absent. */
  gateway?: PaymentGateway;
  /** After an activity's write committed workflow intents: the in-process dispatcher performs them now (else its sweep does). */
  afterWrite?: () => void;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...ledgerActivities(deps.db),
    ...terminationActivities(deps.db),
    ...topupActivities(deps.db, deps.gateway ?? testGateway),
    ...communicationActivities(deps),
    ...planActivities(deps.db),
    ...webhookActivities(deps),
    ...automationActivities(deps),
    ...reportActivities(deps),
    ...retentionActivities(deps),
    /** Health/smoke check: proves a worker is polling and activities run. */
    async ping(name: string): Promise<string> {
      return `pong: ${name}`;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
