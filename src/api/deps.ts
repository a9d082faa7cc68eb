// What the HTTP app is built from (src/api/app.ts createApp), and what route groups take: a file
// of its own, so that routes never import the app that imports them.
import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Logger } from '../log';

export interface AppDeps {
  config: Config;
  database: Database;
  log: Logger;
  jwtSecret: string;
  /** Starts and follows workflows (account termination). */
  workflows: Client;
  /** Called after each successful write: the outbox dispatcher looks for the events and intents it committed. */
  afterWrite?: () => void;
  /** Resolves once the outbox dispatcher performed what was committed before the call (RouteDef.waitForDispatch). */
  dispatched?: () => Promise<void>;
  /** Extra readiness checks for /health (database, Temporal). */
  health: () => Promise<Record<string, { ok: boolean; detail?: string }>>;
}
