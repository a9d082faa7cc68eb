import type { Column, Expr, Literal, OrderItem, ParsedQuery } from './ast';
import { resolveAttribute, type AttributeDef } from './attributes';
import { VisibilityQueryError } from './errors';
import { parseQuery } from './parser';
import { EXECUTION_STATUSES, type SearchAttributeType, type VisibilityRecord } from './types';
import { boolValue, datetimeValue, numberValue, parseDuration, parseRfc3339, textTokens } from './values';

export { VisibilityQueryError } from './errors';
export { knownSearchAttributes } from './attributes';
export type { SearchAttributeType, VisibilityRecord } from './types';

export interface CompiledVisibilityQuery {
  matches(rec: VisibilityRecord): boolean;
  /** Present only when the query has ORDER BY; unset values sort last in both directions. */
  compare?: (a: VisibilityRecord, b: VisibilityRecord) => number;
  /** Set by `GROUP BY ExecutionStatus` (count queries only, as in Temporal). */
  groupBy?: 'ExecutionStatus';
}

export interface VisibilityQueryOptions {
  /** Registered custom search attributes, added to (and overriding) the development-server defaults. */
  customSearchAttributes?: Readonly<Record<string, SearchAttributeType>>;
  /** CountWorkflowExecutions accepts `GROUP BY ExecutionStatus`; list queries reject GROUP BY. */
  allowGroupBy?: boolean;
}

type Scalar = string | number | boolean;
type Predicate = (rec: VisibilityRecord) => boolean;
interface Attr extends AttributeDef {
  name: string;
  values: (rec: VisibilityRecord) => Scalar[];
}

/**
 * Compiles a Temporal list filter (ListWorkflowExecutions / CountWorkflowExecutions syntax) into a
 * predicate and, with ORDER BY, a comparator. Throws VisibilityQueryError for anything invalid.
 */
export function compileVisibilityQuery(query: string, options: VisibilityQueryOptions = {}): CompiledVisibilityQuery {
  if (typeof query !== 'string') throw new VisibilityQueryError('query must be a string');
  const custom = { ...options.customSearchAttributes };
  try {
    const parsed = parseQuery(query);
    const lookup = (col: Column): Attr => attribute(col, custom);
    const matches = parsed.where ? compileExpr(parsed.where, lookup) : () => true;
    const compare = parsed.orderBy.length ? compileOrder(parsed.orderBy, lookup) : undefined;
    if (parsed.groupBy.length) return { matches, groupBy: groupBy(parsed, options) };
    return compare ? { matches, compare } : { matches };
  } catch (err) {
    if (err instanceof VisibilityQueryError) throw err;
    // A bug here must still reach the caller as a bad query, not crash the server.
    throw new VisibilityQueryError(`invalid query: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Temporal groups counts by execution status only, and never lists grouped. */
function groupBy(parsed: ParsedQuery, options: VisibilityQueryOptions): 'ExecutionStatus' {
  if (!options.allowGroupBy) throw new VisibilityQueryError('GROUP BY is only supported in count queries');
  if (parsed.groupBy.length > 1 || parsed.groupBy[0].name !== 'ExecutionStatus') {
    throw new VisibilityQueryError('GROUP BY is only supported for ExecutionStatus');
  }
  if (parsed.orderBy.length) throw new VisibilityQueryError('ORDER BY cannot be combined with GROUP BY');
  return 'ExecutionStatus';
}

function attribute(col: Column, custom: Readonly<Record<string, SearchAttributeType>>): Attr {
  const def = resolveAttribute(col.name, custom);
  if (!def) throw new VisibilityQueryError(`unknown search attribute '${col.name}' at position ${col.pos}`);
  return { ...def, name: col.name, values: valueReader(def) };
}

/** Normalises a record's raw value into comparable scalars; [] means unset. Lists match on any element. */
function valueReader(def: AttributeDef): (rec: VisibilityRecord) => Scalar[] {
  const convert = (v: unknown): Scalar | undefined => {
    switch (def.type) {
      case 'Keyword':
      case 'KeywordList':
      case 'Text':
        return typeof v === 'string' ? v : undefined;
      case 'Int':
      case 'Double':
        return numberValue(v);
      case 'Bool':
        return boolValue(v);
      case 'Datetime':
        return datetimeValue(v);
    }
  };
  return (rec) => {
    const raw = def.get(rec);
    const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
    return list.map(convert).filter((v): v is Scalar => v !== undefined);
  };
}

/** Flattens AND/OR chains iteratively so long filters cannot exhaust the stack when evaluated. */
function compileExpr(root: Expr, lookup: (c: Column) => Attr): Predicate {
  if (root.type === 'and' || root.type === 'or') {
    const operands: Expr[] = [];
    const stack: Expr[] = [root];
    while (stack.length) {
      const e = stack.pop() as Expr;
      if (e.type === root.type) stack.push(e.right, e.left);
      else operands.push(e);
    }
    const preds = operands.map((e) => compileExpr(e, lookup));
    return root.type === 'and' ? (r) => preds.every((p) => p(r)) : (r) => preds.some((p) => p(r));
  }
  if (root.type === 'not') {
    const inner = compileExpr(root.expr, lookup);
    return (r) => !inner(r);
  }
  const attr = lookup(root.column);
  switch (root.type) {
    case 'isNull':
      return (r) => (attr.values(r).length === 0) !== root.negated;
    case 'compare': {
      const v = literalValue(attr, root.value);
      if (root.op === '=' || root.op === '!=') {
        requireTypes(attr, root.op, ['Keyword', 'KeywordList', 'Text', 'Int', 'Double', 'Bool', 'Datetime']);
        const eq = equality(attr, v);
        return root.op === '=' ? eq : (r) => !eq(r);
      }
      requireTypes(attr, root.op, ['Keyword', 'KeywordList', 'Int', 'Double', 'Datetime']);
      const test = rangeTest(root.op, v);
      return (r) => attr.values(r).some(test);
    }
    case 'in': {
      requireTypes(attr, 'IN', ['Keyword', 'KeywordList', 'Int', 'Double', 'Bool', 'Datetime']);
      const set = new Set(root.values.map((l) => literalValue(attr, l)));
      return (r) => attr.values(r).some((x) => set.has(x)) !== root.negated;
    }
    case 'between': {
      requireTypes(attr, 'BETWEEN', ['Keyword', 'KeywordList', 'Int', 'Double', 'Datetime']);
      const low = literalValue(attr, root.low);
      const high = literalValue(attr, root.high);
      return (r) => attr.values(r).some((x) => x >= low && x <= high) !== root.negated;
    }
    case 'startsWith': {
      requireTypes(attr, 'STARTS_WITH', ['Keyword', 'KeywordList']);
      if (root.value.kind !== 'string') throw valueError(attr, root.value, 'a quoted string prefix');
      const prefix = root.value.value;
      return (r) => attr.values(r).some((x) => typeof x === 'string' && x.startsWith(prefix)) !== root.negated;
    }
  }
}

function equality(attr: Attr, v: Scalar): Predicate {
  if (attr.type !== 'Text') return (r) => attr.values(r).some((x) => x === v);
  // Text is full-text: every word of the query must appear among the attribute's words.
  const wanted = textTokens(String(v));
  return (r) =>
    wanted.length > 0 &&
    attr.values(r).some((x) => {
      const have = new Set(textTokens(String(x)));
      return wanted.every((w) => have.has(w));
    });
}

function rangeTest(op: '<' | '<=' | '>' | '>=', v: Scalar): (x: Scalar) => boolean {
  switch (op) {
    case '<':
      return (x) => x < v;
    case '<=':
      return (x) => x <= v;
    case '>':
      return (x) => x > v;
    case '>=':
      return (x) => x >= v;
  }
}

function requireTypes(attr: Attr, op: string, allowed: SearchAttributeType[]): void {
  if (!allowed.includes(attr.type)) {
    throw new VisibilityQueryError(`operator ${op} is not supported for ${attr.type} search attribute '${attr.name}'`);
  }
}

/** Checks a literal against the attribute's type and converts it to the form valueReader produces. */
function literalValue(attr: Attr, lit: Literal): Scalar {
  if (attr.special === 'status') {
    if (lit.kind === 'number' && lit.isInt && lit.value >= 1 && lit.value <= EXECUTION_STATUSES.length) {
      return EXECUTION_STATUSES[lit.value - 1];
    }
    const status = lit.kind === 'string' && EXECUTION_STATUSES.find((s) => s.toLowerCase() === lit.value.toLowerCase());
    if (!status) throw valueError(attr, lit, `one of ${EXECUTION_STATUSES.join(', ')}`);
    return status;
  }
  if (attr.special === 'duration') {
    const ns = lit.kind === 'number' && lit.isInt ? lit.value : lit.kind === 'string' ? parseDuration(lit.value) : undefined;
    if (ns === undefined) throw valueError(attr, lit, "a duration such as '90s', '1h30m', '00:01:30' or integer nanoseconds");
    return ns;
  }
  switch (attr.type) {
    case 'Keyword':
    case 'KeywordList':
    case 'Text':
      if (lit.kind !== 'string') throw valueError(attr, lit, 'a quoted string');
      return lit.value;
    case 'Int':
      if (lit.kind !== 'number' || !Number.isInteger(lit.value)) throw valueError(attr, lit, 'an integer');
      return lit.value;
    case 'Double':
      if (lit.kind !== 'number') throw valueError(attr, lit, 'a number');
      return lit.value;
    case 'Bool': {
      const b = lit.kind === 'bool' ? lit.value : lit.kind === 'string' ? boolValue(lit.value.toLowerCase()) : undefined;
      if (b === undefined) throw valueError(attr, lit, 'true or false');
      return b;
    }
    case 'Datetime': {
      // Temporal also accepts an integer of Unix nanoseconds.
      const ms = lit.kind === 'string' ? parseRfc3339(lit.value) : lit.kind === 'number' && lit.isInt ? lit.value / 1e6 : undefined;
      if (ms === undefined) throw valueError(attr, lit, "an RFC3339 timestamp in quotes, e.g. '2024-01-31T12:00:00Z'");
      return ms;
    }
  }
}

function valueError(attr: Attr, lit: Literal, expected: string): VisibilityQueryError {
  const shown = lit.kind === 'string' ? `'${lit.value}'` : String(lit.value);
  return new VisibilityQueryError(
    `invalid value ${shown} for ${attr.type} search attribute '${attr.name}' at position ${lit.pos}: expected ${expected}`,
  );
}

function compileOrder(items: OrderItem[], lookup: (c: Column) => Attr): (a: VisibilityRecord, b: VisibilityRecord) => number {
  const keys = items.map((item) => {
    const attr = lookup(item.column);
    if (attr.type === 'Text' || attr.type === 'KeywordList') {
      throw new VisibilityQueryError(`cannot ORDER BY ${attr.type} search attribute '${attr.name}'`);
    }
    return { attr, sign: item.desc ? -1 : 1 };
  });
  return (a, b) => {
    for (const { attr, sign } of keys) {
      const x = attr.values(a)[0];
      const y = attr.values(b)[0];
      if (x === y) continue;
      if (x === undefined) return 1;
      if (y === undefined) return -1;
      return (x < y ? -1 : 1) * sign;
    }
    return 0;
  };
}
