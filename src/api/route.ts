import type { z } from 'zod';
import type { Db } from '../db/client';
import type { Config } from '../config';

/** Scopes are `<group>:read` / `<group>:write`; a credential holding `*` or `<group>` has both. */
export type Scope = `${string}:${'read' | 'write'}`;

export interface Actor {
  type: 'api_key' | 'user';
  id: string;
  /** SECRET or PUBLIC for API keys; users are always SECRET-equivalent. */
  kind: 'SECRET' | 'PUBLIC';
  scopes: string[];
  isAdmin: boolean;
}

/** What a handler knows about the request: who, for which organisation, and its services. */
export interface RequestContext {
  organisationId: string;
  actor: Actor;
  requestId: string;
  db: Db;
  config: Config;
}

type Schema = z.ZodType;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteDef<P extends Schema | undefined = Schema | undefined, Q extends Schema | undefined = Schema | undefined, B extends Schema | undefined = Schema | undefined, R extends Schema = Schema> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI-style path under the base path, e.g. `/contacts/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** `none`: no credential (login). Otherwise the scope required; `public` also admits public keys. */
  auth: 'none' | { scope: Scope; public?: boolean; adminOnly?: boolean };
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  /** Success status, 200 unless spec.md says otherwise. */
  status?: number;
  /**
   * Response fields never stored for an Idempotency-Key replay (a secret shown once); a replay
   * answers them as null.
   */
  secretFields?: string[];
  /** Error statuses this operation can answer besides the common ones (documented in OpenAPI). */
  errors?: number[];
  handler: (input: { ctx: RequestContext; params: Out<P>; query: Out<Q>; body: Out<B> }) => Promise<z.input<R>>;
}

/** Identity function that lets TypeScript infer handler input types from the schemas. */
export function route<P extends Schema | undefined = undefined, Q extends Schema | undefined = undefined, B extends Schema | undefined = undefined, R extends Schema = Schema>(
  def: RouteDef<P, Q, B, R>,
): RouteDef {
  return def as unknown as RouteDef;
}
