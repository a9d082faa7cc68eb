// Tenancy by construction: request code never holds a client that can see another
// organisation. `scopedClient(prisma, org)` returns a Prisma client whose every model query is
// narrowed to the organisation (reads and bulk writes get `organisation_id = org` added; creates
// get it set, and a create naming another organisation is refused), and whose raw statements
// are refused unless they carry the organisation id as a parameter. docs/platform.md "Tenancy".
import { Prisma, type PrismaClient } from '../generated/prisma/client';

/** Models that are not owned by one organisation; only identity code (unscoped) touches them. */
export const GLOBAL_MODELS: ReadonlySet<string> = new Set(['Organisation', 'RefreshToken', 'LoginThrottle']);

export class TenancyViolation extends Error {
  constructor(message: string) {
    super(`Tenancy violation: ${message}`);
    this.name = 'TenancyViolation';
  }
}

const WHERE_OPERATIONS = new Set([
  'findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany', 'count', 'aggregate', 'groupBy',
  'update', 'updateMany', 'updateManyAndReturn', 'delete', 'deleteMany', 'upsert',
]);
const CREATE_OPERATIONS = new Set(['create', 'createMany', 'createManyAndReturn', 'upsert']);

type Args = Record<string, unknown>;

function scopeArgs(organisationId: string, model: string, operation: string, args: Args | undefined): Args {
  const out: Args = { ...(args ?? {}) };
  if (WHERE_OPERATIONS.has(operation)) {
    const where = (out.where as Args | undefined) ?? {};
    if (where.organisationId !== undefined && where.organisationId !== organisationId) {
      throw new TenancyViolation(`a query for ${model} of another organisation is refused`);
    }
    out.where = { ...where, organisationId };
  }
  if (CREATE_OPERATIONS.has(operation)) {
    const key = operation === 'upsert' ? 'create' : 'data';
    const data = out[key];
    out[key] = Array.isArray(data) ? data.map((row) => owned(organisationId, model, row as Args)) : owned(organisationId, model, data as Args);
  }
  return out;
}

function owned(organisationId: string, model: string, row: Args | undefined): Args {
  const given = row?.organisationId;
  if (given !== undefined && given !== organisationId) throw new TenancyViolation(`a ${model} of another organisation cannot be written here`);
  return { ...(row ?? {}), organisationId };
}

/** A raw statement on a scoped client must name the organisation among its parameters. */
function checkRaw(organisationId: string, operation: string, args: unknown): void {
  const values = rawValues(args);
  if (!values.some((v) => v === organisationId)) {
    throw new TenancyViolation(`${operation} without the organisation id as a parameter is refused on an organisation-scoped client`);
  }
}

function rawValues(args: unknown): unknown[] {
  if (args instanceof Prisma.Sql) return args.values;
  if (Array.isArray(args)) {
    // $queryRawUnsafe(text, ...values) arrives as [text, ...values]; the tagged form as [Sql] or [strings, ...values].
    const [first, ...rest] = args;
    if (first instanceof Prisma.Sql) return first.values;
    return rest;
  }
  return [];
}

function extend(prisma: PrismaClient, organisationId: string) {
  return prisma.$extends({
    name: 'tenancy',
    query: {
      // Model operations and raw statements alike; a raw statement has no model.
      $allOperations({ model, operation, args, query }) {
        if (model === undefined) {
          checkRaw(organisationId, operation, args);
          return query(args);
        }
        if (GLOBAL_MODELS.has(model)) throw new TenancyViolation(`${model} is not organisation data; use the unscoped identity client`);
        return query(scopeArgs(organisationId, model, operation, args as Args));
      },
    },
  });
}

// One extended client per organisation, reused: building one per request would cost more than
// most queries. Bounded so a stream of organisations cannot grow it without limit.
const MAX_CACHED = 1000;
const cache = new WeakMap<PrismaClient, Map<string, PrismaClient>>();

/**
 * The client of one organisation. Query extensions leave Prisma's types unchanged, so it is
 * typed as a plain client; `$transaction` on it yields transactions scoped the same way.
 */
export function scopedClient(prisma: PrismaClient, organisationId: string): PrismaClient {
  let byOrg = cache.get(prisma);
  if (!byOrg) cache.set(prisma, (byOrg = new Map()));
  let client = byOrg.get(organisationId);
  if (!client) {
    if (byOrg.size >= MAX_CACHED) byOrg.clear();
    client = extend(prisma, organisationId) as unknown as PrismaClient;
    byOrg.set(organisationId, client);
  }
  return client;
}
