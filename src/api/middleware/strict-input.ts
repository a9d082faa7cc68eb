// Input PostgreSQL cannot store, or that is not the shape an operation takes, is refused before
// validation, naming the field: NUL characters and unpaired UTF-16 surrogates (JSON's `\u0000`
// and `\ud800` escapes produce them) in any key or string of a path, query or body.
import { invalid } from '../../domain/errors';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badText(s: string): string | undefined {
  if (s.includes('\u0000')) return 'must not contain NUL characters';
  if (LONE_SURROGATE.test(s)) return 'must not contain unpaired UTF-16 surrogates';
  return undefined;
}

/** Throws 400 naming the first key or string (as `a.0.b`) that holds text the service refuses. */
export function assertStorableText(value: unknown, path: string[] = []): void {
  if (typeof value === 'string') {
    const problem = badText(value);
    if (problem) throw invalid(path.join('.') || undefined, `${path.join('.') || 'value'} ${problem}`);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => assertStorableText(item, [...path, String(i)]));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const problem = badText(key);
      if (problem) throw invalid([...path, key.replace(/[\u0000\uD800-\uDFFF]/g, '?')].join('.'), `field name ${problem}`);
      assertStorableText(item, [...path, key]);
    }
  }
}

/**
 * The body an operation gets: an operation with a body schema takes a JSON object (a missing
 * body counts as `{}`); one without takes nothing, or `{}`.
 */
export function bodyFor(expectsBody: boolean, body: unknown): unknown {
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  if (expectsBody) {
    if (body === undefined) return {};
    if (!isObject) throw invalid(undefined, 'The request body must be a JSON object');
    return body;
  }
  if (body === undefined || (isObject && Object.keys(body as object).length === 0)) return undefined;
  throw invalid(undefined, 'This operation takes no request body');
}
