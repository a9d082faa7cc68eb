import type { z } from 'zod';
import type { Config } from '../config';
import type { Tx } from '../db/client';
import type { OrgSql } from '../db/sql';
import type { Scope, ScopeGroup } from '../domain/identity/scopes';

/** Scopes are `<group>:read` / `<group>:write`; a credential holding `*` or `<group>` has both. */
export type { Scope };

export interface Actor {
  type: 'api_key' | 'user';
  id: string;
  /** SECRET or PUBLIC for API keys; users are always SECRET-equivalent. */
  kind: 'SECRET' | 'PUBLIC';
  scopes: string[];
  isAdmin: boolean;
}

/** What a handler knows about the request: who, for which organisation, and its database. */
export interface RequestContext {
  organisationId: string;
  actor: Actor;
  requestId: string;
  config: Config;
  /** The client's address: the socket's, or the proxy's word for it under TRUST_PROXY (Express's req.ip). */
  clientAddress: string;
  /**
   * The organisation's database (src/db/tenancy.ts): in a write route the one transaction the
   * pipeline opened, otherwise a scoped client. Routes without authentication have none.
   */
  db: Tx;
  /**
   * Hand-written statements for hot paths (src/db/sql.ts), scoped the same way and on the same
   * transaction as `db`.
   */
  sql: OrgSql;
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<P, Q, B, Prep> {
  ctx: RequestContext;
  params: P;
  query: Q;
  body: B;
  /** What `prepare` returned (undefined without one). */
  prepared: Prep;
}

export interface RouteDef<
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  B extends Schema | undefined = Schema | undefined,
  R extends Schema = Schema,
  Prep = unknown,
> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI-style path under the base path, e.g. `/contacts/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** `none`: no credential (login). Otherwise the scope required; `public` also admits public keys. */
  auth: 'none' | { scope: Scope; public?: boolean; adminOnly?: boolean };
  /**
   * With auth `none`: a credential, when one is sent, is checked all the same (401 when invalid)
   * and becomes `ctx.actor` (GET /health answers its details to one).
   */
  optionalCredential?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Success status, 200 unless spec.md says otherwise. */
  status?: number;
  /**
   * A second success answer, told apart by the handler's result: its status and schema
   * (POST /automations/{id}/simulations: 200 with a verdict, 202 with a replay's id).
   */
  also?: { status: number; response: Schema; description: string; when: (result: unknown) => boolean };
  /**
   * POST, PUT and DELETE run their handler in one transaction the pipeline opens (and commits
   * after the handler returns); `false` opts out, for writes that are not database writes.
   * `'sql'`: the transaction is a pg connection of the pipeline's own, for handlers that use
   * only `ctx.sql` (the ledger: docs/money.md "The write path"); `ctx.db` is then unavailable.
   * `'statement'`: as `'sql'`, for a handler that reads, then writes with exactly one statement,
   * which is a transaction by itself: no BEGIN and COMMIT round trips (POST /contacts, issue 32).
   * With an Idempotency-Key the pipeline opens `'sql'`'s transaction, so the stored answer commits
   * with the write.
   */
  transaction?: boolean | 'sql' | 'statement';
  /**
   * Slow work that must not hold a transaction (password hashing), run after validation and
   * before the transaction opens; its result reaches the handler as `prepared`.
   */
  prepare?: (input: Omit<HandlerInput<Out<P>, Out<Q>, Out<B>, undefined>, 'prepared'>) => Promise<Prep>;
  /** Error statuses this operation can answer besides the common ones (documented in OpenAPI). */
  errors?: number[];
  /** A valid request body, shown in the OpenAPI document and used by the bad-input test. */
  example?: B extends Schema ? z.input<B> : never;
  handler: (input: HandlerInput<Out<P>, Out<Q>, Out<B>, Prep>) => Promise<z.input<R>>;
  /**
   * The write recorded a workflow intent whose start the answer should follow (the client may look
   * at the workflow at once): after the commit the request waits for the outbox dispatcher's pass,
   * at most DISPATCH_WAIT_MS (src/api/app.ts); later, the dispatcher's retries perform it all the same.
   */
  waitForDispatch?: boolean;
  /**
   * After the handler's transaction committed and the outbox dispatcher was kicked, holding no
   * transaction: a request that must wait for the workflow its write asked for waits here (account
   * termination). What it throws is the answer; a 5xx frees an Idempotency-Key for a retry.
   */
  afterCommit?: (input: HandlerInput<Out<P>, Out<Q>, Out<B>, Prep>) => Promise<void>;
}

/** The read and the write scope of a group, as a route's `auth` and a resource's take them. */
export const groupAuth = <G extends ScopeGroup>(group: G) =>
  ({ read: { scope: `${group}:read` }, write: { scope: `${group}:write` } }) as const satisfies { read: { scope: Scope }; write: { scope: Scope } };

/** Identity function that lets TypeScript infer handler input types from the schemas. */
export function route<
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  B extends Schema | undefined = undefined,
  R extends Schema = Schema,
  Prep = undefined,
>(def: RouteDef<P, Q, B, R, Prep>): RouteDef {
  return def as unknown as RouteDef;
}

const bodyNeeded = new WeakMap<RouteDef, boolean>();

/**
 * Whether an operation needs a request body: exactly when its body schema refuses `{}`. An
 * operation whose fields are all optional takes no body as "nothing given" (a partial update
 * that changes nothing, a run with the defaults). The pipeline refuses a missing body by this
 * rule and the OpenAPI document states it as `requestBody.required`, so the two cannot disagree.
 */
export function bodyRequired(def: RouteDef): boolean {
  if (!def.body) return false;
  let needed = bodyNeeded.get(def);
  if (needed === undefined) bodyNeeded.set(def, (needed = !def.body.safeParse({}).success));
  return needed;
}

/** Whether the pipeline opens a transaction around this route's handler. */
export function runsInTransaction(def: RouteDef): boolean {
  return def.auth !== 'none' && def.method !== 'get' && def.transaction !== false;
}
