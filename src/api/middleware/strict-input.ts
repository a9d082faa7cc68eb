// Input PostgreSQL cannot store, or that is not the shape an operation takes, is refused before
// validation, naming the field: NUL characters and unpaired UTF-16 surrogates (JSON's `\u0000`
// and `\ud800` escapes produce them) in any key or string of a path, query or body.
import { invalid } from '../../domain/errors';
import { MAX_MEMBERS, MAX_NESTING, tooDeep, tooWide } from './nesting';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every character either check looks for: one native scan clears almost every string. */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;

function badText(s: string): string | undefined {
  if (!SUSPECT.test(s)) return undefined;
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(s)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

/**
 * Throws 400 naming the first key or string (as `a.0.b`), in document order, that holds text
 * the service refuses, or where the body passes MAX_NESTING or MAX_MEMBERS. Iterative over a stack of at most
 * MAX_NESTING levels, which is also the path, so nothing is built unless there is an error: a
 * 1 MiB body of any shape is walked in milliseconds (docs/security.md "Bounded input").
 */
export function assertStorableText(root: unknown): void {
  if (typeof root === 'string') return checkText(root);
  if (root === null || typeof root !== 'object') return;
  const containers: object[] = [root];
  /** Per level: the object's keys, or undefined for an array. */
  const keys: (string[] | undefined)[] = [keysOf(root)];
  if ((keys[0]?.length ?? 0) > MAX_MEMBERS) throw tooWide(undefined);
  /** Per level: the index of the member being looked at. */
  const at: number[] = [-1];
  let top = 0;
  const path = (last?: string) =>
    at.slice(0, top + 1).map((i, level) => (level === top && last !== undefined ? last : keys[level]?.[i] ?? String(i))).join('.');
  while (top >= 0) {
    const names = keys[top];
    const i = ++at[top];
    if (i === (names ?? (containers[top] as unknown[])).length) {
      top--;
      continue;
    }
    let item: unknown;
    if (names) {
      const problem = badText(names[i]);
      if (problem) throw invalid(path(names[i].replace(/[\u0000\uD800-\uDFFF]/g, '?')), `field name ${problem}`);
      item = (containers[top] as Record<string, unknown>)[names[i]];
    } else item = (containers[top] as unknown[])[i];
    if (typeof item === 'string') checkText(item, path);
    else if (item !== null && typeof item === 'object') {
      if (top + 1 === MAX_NESTING) throw tooDeep(path());
      const names = keysOf(item);
      if ((names?.length ?? 0) > MAX_MEMBERS) throw tooWide(path());
      top++;
      containers[top] = item;
      keys[top] = names;
      at[top] = -1;
    }
  }
}

const keysOf = (value: object) => (Array.isArray(value) ? undefined : Object.keys(value));

function checkText(s: string, path?: () => string): void {
  const problem = badText(s);
  if (!problem) return;
  const where = path?.() ?? '';
  throw invalid(where || undefined, `${where || 'value'} ${problem}`);
}

/**
 * The body an operation gets: an operation with a body schema takes a JSON object; a missing
 * body is refused naming `body` where the body is required (`bodyRequired` in ../route.ts) and
 * counts as `{}` where it is optional. An operation without a body schema takes nothing, or `{}`.
 */
export function bodyFor(body: unknown, expects: 'none' | 'optional' | 'required'): unknown {
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  if (expects !== 'none') {
    if (body === undefined && expects === 'required') throw invalid('body', 'This operation needs a JSON request body');
    if (body === undefined) return {};
    if (!isObject) throw invalid(undefined, 'The request body must be a JSON object');
    return body;
  }
  if (body === undefined || (isObject && Object.keys(body as object).length === 0)) return undefined;
  throw invalid(undefined, 'This operation takes no request body');
}
