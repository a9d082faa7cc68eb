/**
 * One transaction policy for every write, a request's (src/api/app.ts) or an activity's
 * (src/activities/transaction.ts): wait up to 10 s for a connection, run at most 30 s.
 */
export const WRITE_TRANSACTION = { maxWait: 10_000, timeout: 30_000 } as const;
