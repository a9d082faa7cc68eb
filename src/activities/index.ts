/**
 * Activity implementations. Built from explicit dependencies so the API process and a
 * standalone worker wire the same code to their own resources.
 */
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../log';
import type { Mailer } from '../mail';
import { ledgerActivities } from './ledger';
import { terminationActivities } from './termination';

export interface ActivityDeps {
  db: Db;
  mail: Mailer;
  config: Config;
  log: Logger;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...ledgerActivities(deps.db),
    ...terminationActivities(deps.db),
    /** Health/smoke check: proves a worker is polling and activities run. */
    async ping(name: string): Promise<string> {
      return `pong: ${name}`;
    },
  };
}

export type Activities = ReturnType<typeof createActivities>;
