// Finds the operation of a request in a tree built once from the route definitions.
//
// Express's router tries its layers one after another, one regular expression each: with a
// hundred operations that alone cost ~0.1 ms of CPU per request, more than a query
// (docs/benchmarks.md). Here a request walks its path segments down a tree: the cost depends on
// the path's depth, not on how many operations exist. A literal segment wins over a parameter
// (`/contacts/search` before `/contacts/{id}`), with backtracking when the literal leads nowhere.
import { invalid } from '../domain/errors';
import type { RouteDef } from './route';

interface Leaf {
  def: RouteDef;
  /** Names of the path's parameters, in order. */
  names: string[];
}

interface Node {
  literals: Map<string, Node>;
  param?: { name: string; node: Node };
  methods: Map<string, Leaf>;
}

export type RouteMatch =
  | { kind: 'found'; def: RouteDef; params: Record<string, string> }
  /** The path exists, the method does not (405 with `Allow`). */
  | { kind: 'method'; allowed: string[] }
  | { kind: 'none' };

const newNode = (): Node => ({ literals: new Map(), methods: new Map() });

export class RouteTable {
  private readonly root = newNode();

  constructor(defs: readonly RouteDef[]) {
    for (const def of defs) this.add(def);
  }

  /** `path` is the request path below the base path, not yet percent-decoded. */
  find(method: string, path: string): RouteMatch {
    const segments = split(path);
    const values: string[] = [];
    const node = walk(this.root, segments, 0, values);
    if (!node) return { kind: 'none' };
    const leaf = node.methods.get(method === 'HEAD' ? 'GET' : method);
    if (!leaf) return { kind: 'method', allowed: [...node.methods.keys()] };
    const params: Record<string, string> = {};
    leaf.names.forEach((name, i) => {
      params[name] = decode(name, values[i]);
    });
    return { kind: 'found', def: leaf.def, params };
  }

  private add(def: RouteDef): void {
    let node = this.root;
    const names: string[] = [];
    for (const segment of split(def.path)) {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (param) {
        node.param ??= { name: param[1], node: newNode() };
        if (node.param.name !== param[1]) throw new Error(`${def.path}: parameter {${param[1]}} where another route has {${node.param.name}}`);
        names.push(param[1]);
        node = node.param.node;
      } else {
        let next = node.literals.get(segment);
        if (!next) node.literals.set(segment, (next = newNode()));
        node = next;
      }
    }
    const method = def.method.toUpperCase();
    if (node.methods.has(method)) throw new Error(`Two routes for ${method} ${def.path}`);
    node.methods.set(method, { def, names });
  }
}

function walk(node: Node, segments: string[], i: number, values: string[]): Node | undefined {
  if (i === segments.length) return node.methods.size > 0 ? node : undefined;
  const literal = node.literals.get(segments[i]);
  const found = literal && walk(literal, segments, i + 1, values);
  if (found) return found;
  if (!node.param || segments[i] === '') return undefined;
  values.push(segments[i]);
  const viaParam = walk(node.param.node, segments, i + 1, values);
  if (!viaParam) values.pop();
  return viaParam;
}

/** `/a/b/` and `/a/b` are the same operation; the leading slash carries no segment. */
function split(path: string): string[] {
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  return trimmed.split('/').slice(1);
}

function decode(name: string, raw: string): string {
  try {
    return raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    throw invalid(name, `The path parameter ${name} is not valid percent-encoding`);
  }
}
