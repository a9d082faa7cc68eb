// SQL statements a process sends: every statement of @prisma/adapter-pg (and of plain pg pools)
// goes through pg's Client#query, so counting its calls counts them all. Imported for its effect
// by bench/service-child.ts, bench/engine-peer.ts and bench/worker-stats.ts.
import { Client } from 'pg';

let statements = 0;
const originalQuery = Client.prototype.query;
Client.prototype.query = function countedQuery(this: Client, ...args: unknown[]) {
  statements++;
  return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof Client.prototype.query;

export function statementsSent(): number {
  return statements;
}
