// What the activities are built from: the API process and a standalone worker wire the same code
// to their own resources (src/activities/index.ts createActivities).
import type { Pool } from 'pg';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../log';
import type { Mailer } from '../mail';
import type { PaymentGateway } from '../payments/gateway';

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
