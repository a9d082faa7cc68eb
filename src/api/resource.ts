// The usual operations of a resource (create, list, get, update, delete), built from one
// declaration: its path, its schemas, its domain functions and the words of its documentation.
// Every group of that shape is served by it (docs/DEVELOPING.md "Adding a resource"); an
// operation that is not the usual one is a plain `route({...})` beside it.
import type { z } from 'zod';
import type { Tx } from '../db/client';
import { actorOf, type AuditActor } from '../domain/audit';
import { contentPage, listArgs, type ListArgs, type ListPage, type ListQuery, type SortField } from './lists';
import { route, type RequestContext, type RouteDef } from './route';
import { idParams, idResponse } from './validation';

type Schema = z.ZodType;
type Auth = Exclude<RouteDef['auth'], 'none'>;

/** What an operation says of itself in the OpenAPI document; the summary defaults to "<Verb> a <label>" ("List <label>s"). */
interface Docs {
  summary?: string;
  description?: string;
  /** Besides the common ones; by default 409 on create, 404 on get, 404 and 409 on update and delete. */
  errors?: number[];
}

interface Write<B extends Schema> extends Docs {
  body: B;
  example?: z.input<B>;
  /** A slow check of the body that must not hold the transaction (an outbound address's lookup), run as the route's `prepare`. */
  check?: (input: { ctx: RequestContext; body: z.output<B> }) => Promise<void>;
}

export interface Resource<Row, I extends Schema, CB extends Schema, UB extends Schema, LQ extends Schema, F> {
  /** The collection, e.g. `/departments`; an item is `<path>/{id}`. */
  path: string;
  /** Operation id stems, e.g. `Department` / `Departments`. */
  one: string;
  many: string;
  /** In the default summaries, e.g. `department`. */
  label: string;
  /** The label's article in the default summaries: `an` before a vowel sound (default `a`). */
  article?: 'a' | 'an';
  tag: string;
  auth: { read: Auth; write: Auth };
  item: I;
  /** The item's JSON, from what the domain's get and list answer. */
  present: (row: Row) => z.input<I>;
  create?: RouteDef | Write<CB> & { run: (tx: Tx, actor: AuditActor, body: z.output<CB>) => Promise<{ id: string }> };
  list?: RouteDef | Docs & {
    query: LQ;
    response: Schema;
    /** API sort fields → model fields, and the field without `sort` (default: newest first). */
    sort: Record<string, SortField>;
    defaultSort?: string;
    filter: (query: z.output<LQ>) => F;
    run: (tx: Tx, organisationId: string, args: ListArgs, filter: F) => Promise<ListPage<Row>>;
  };
  get?: RouteDef | Docs & { run: (tx: Tx, organisationId: string, id: string) => Promise<Row> };
  update?: RouteDef | Write<UB> & { run: (tx: Tx, actor: AuditActor, id: string, patch: z.output<UB>) => Promise<unknown> };
  delete?: RouteDef | Docs & { run: (tx: Tx, actor: AuditActor, id: string) => Promise<unknown> };
}

/** The resource's routes, in the order create, list, get, update, delete (the document's order). */
export function resourceRoutes<Row, I extends Schema, CB extends Schema, UB extends Schema, LQ extends Schema, F>(
  r: Resource<Row, I, CB, UB, LQ, F>,
): RouteDef[] {
  const item = `${r.path}/{id}`;
  const docs = (d: Docs, verb: string, errors: number[]) => ({
    tag: r.tag,
    summary: d.summary ?? `${verb} ${r.article ?? 'a'} ${r.label}`,
    ...(d.description === undefined ? {} : { description: d.description }),
    errors: d.errors ?? errors,
  });
  const { create, list, get, update, delete: remove } = r;
  return [
    build(create, (create) => route({
      ...docs(create, 'Create', [409]), method: 'post', path: r.path, operationId: `create${r.one}`, auth: r.auth.write,
      body: create.body as Schema, response: idResponse, example: create.example, prepare: create.check as RouteDef['prepare'],
      handler: ({ ctx, body }) => create.run(ctx.db, actorOf(ctx), body as z.output<CB>),
    })),
    build(list, (list) => route({
      ...docs(list, 'List', []), summary: list.summary ?? `List ${r.label}s`,
      method: 'get', path: r.path, operationId: `list${r.many}`, auth: r.auth.read, query: list.query as Schema, response: list.response,
      handler: async ({ ctx, query }) => {
        const q = query as z.output<LQ> & ListQuery;
        const page = await list.run(ctx.db, ctx.organisationId, listArgs(q, list.sort, list.defaultSort), list.filter(q));
        return contentPage(q, page.rows.map(r.present), page.total);
      },
    })),
    build(get, (get) => route({
      ...docs(get, 'Get', [404]), method: 'get', path: item, operationId: `get${r.one}`, auth: r.auth.read,
      params: idParams, response: r.item,
      handler: async ({ ctx, params }) => r.present(await get.run(ctx.db, ctx.organisationId, params.id)),
    })),
    build(update, (update) => route({
      ...docs(update, 'Update', [404, 409]), method: 'put', path: item, operationId: `update${r.one}`, auth: r.auth.write,
      params: idParams, body: update.body as Schema, response: idResponse, example: update.example, prepare: update.check as RouteDef['prepare'],
      handler: async ({ ctx, params, body }) => {
        await update.run(ctx.db, actorOf(ctx), params.id, body as z.output<UB>);
        return { id: params.id };
      },
    })),
    build(remove, (remove) => route({
      ...docs(remove, 'Delete', [404, 409]), method: 'delete', path: item, operationId: `delete${r.one}`, auth: r.auth.write,
      params: idParams, response: idResponse,
      handler: async ({ ctx, params }) => {
        await remove.run(ctx.db, actorOf(ctx), params.id);
        return { id: params.id };
      },
    })),
  ].filter((def): def is RouteDef => def !== undefined);
}

/** An operation the resource declares as a route of its own keeps its place among the usual ones. */
function build<Op extends object>(op: RouteDef | Op | undefined, usual: (op: Op) => RouteDef): RouteDef | undefined {
  if (op === undefined) return undefined;
  return 'handler' in op ? (op as RouteDef) : usual(op as Op);
}
