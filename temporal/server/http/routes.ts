/**
 * The HTTP route table, derived from the `google.api.http` annotations (and their
 * additional_bindings) that @temporalio/proto's descriptor carries for WorkflowService and
 * OperatorService: nothing here names a route. Templates are plain `{field.path}` segments.
 */
import type { Method } from 'protobufjs';
import { protoRoot, OPERATOR_SERVICE, WORKFLOW_SERVICE } from '../grpc/service';

type Segment = { literal: string } | { field: string };

export interface Route {
  service: string;
  method: Method;
  verb: string;
  template: string;
  segments: Segment[];
  /** '*' (the whole request), a field path, or undefined (everything from the query string). */
  body?: string;
}

interface HttpRule {
  body?: string;
  additional_bindings?: HttpRule | HttpRule[];
  [verb: string]: unknown;
}

const VERBS = ['get', 'post', 'put', 'delete', 'patch'];

export function deriveRoutes(services = [WORKFLOW_SERVICE, OPERATOR_SERVICE]): Route[] {
  const routes: Route[] = [];
  for (const service of services) {
    for (const method of protoRoot.lookupService(service).methodsArray) {
      for (const opt of (method.parsedOptions ?? []) as Record<string, HttpRule>[]) {
        const rule = opt['(google.api.http)'];
        if (!rule) continue;
        const extra = rule.additional_bindings;
        for (const binding of [rule, ...(Array.isArray(extra) ? extra : extra ? [extra] : [])]) {
          const verb = VERBS.find((v) => typeof binding[v] === 'string');
          if (!verb) throw new Error(`${method.name}: HTTP binding without a verb`);
          const template = binding[verb] as string;
          routes.push({ service, method, verb: verb.toUpperCase(), template, segments: parseTemplate(template), body: binding.body });
        }
      }
    }
  }
  // Literal segments win over variables at the first place two routes differ.
  return routes.sort((a, b) => {
    const [x, y] = [specificity(a), specificity(b)];
    return x < y ? 1 : x > y ? -1 : 0;
  });
}

function parseTemplate(template: string): Segment[] {
  return template
    .slice(1)
    .split('/')
    .map((s) => {
      const v = /^\{([a-z0-9_.]+)\}$/.exec(s);
      if (v) return { field: v[1] };
      if (/[{}*:=]/.test(s)) throw new Error(`unsupported HTTP template segment "${s}" in ${template}`);
      return { literal: s };
    });
}

function specificity(r: Route): string {
  return r.segments.map((s) => ('literal' in s ? '1' : '0')).join('');
}

export type Match = { route: Route; params: Record<string, string> } | 'method-not-allowed' | undefined;

/** Finds the route for a request; path segments are percent-decoded (the UI encodes ids once). */
export function matchRoute(routes: Route[], verb: string, pathname: string): Match {
  const parts = pathname.slice(1).split('/').map(decodeURIComponent);
  let otherVerb = false;
  for (const route of routes) {
    if (route.segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = route.segments.every((s, i) => ('literal' in s ? s.literal === parts[i] : ((params[s.field] = parts[i]), parts[i] !== '')));
    if (!ok) continue;
    if (route.verb === verb) return { route, params };
    otherVerb = true;
  }
  return otherVerb ? 'method-not-allowed' : undefined;
}
