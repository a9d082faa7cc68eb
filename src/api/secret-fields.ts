// Secrets in responses, and what an Idempotency-Key record keeps of them (docs/security.md
// "Secrets in idempotency records"). A response schema marks each secret with `secret()`; the
// pipeline derives from the schema which top-level fields to keep out of the record, so a new
// route cannot forget it (test/security/side-doors.test.ts refuses a secret-like field unmarked).
import { z } from 'zod';
import { openSecret, sealSecret } from '../secret-box';

/**
 * `shown_once`: the service keeps no usable copy (API keys, voucher secret numbers: hashes only),
 * so a replay answers null. `sealed`: the service keeps the secret anyway and shows it again
 * (webhook signing secrets: GET /webhooks/{id}), so the record keeps it sealed and a replay
 * answers it again.
 */
export type SecretReplay = 'shown_once' | 'sealed';

/** The OpenAPI extension that carries the mark: the document says which fields are secrets. */
export const SECRET_MARK = 'x-secret';

/** Marks a response field as a secret (its meta, e.g. the description, is kept). */
export function secret<S extends z.ZodType>(replay: SecretReplay, schema: S): S {
  return schema.meta({ ...schema.meta(), [SECRET_MARK]: replay }) as S;
}

export interface SecretFields {
  shownOnce: string[];
  sealed: string[];
}

type Json = Record<string, unknown>;
const derived = new WeakMap<z.ZodType, SecretFields>();

/** The response's top-level fields holding a secret anywhere within; shown_once wins over sealed. */
export function secretFieldsOf(response: z.ZodType): SecretFields {
  let fields = derived.get(response);
  if (fields) return fields;
  const json = z.toJSONSchema(response, { io: 'output', unrepresentable: 'any' }) as Json;
  const defs = (json.$defs ?? {}) as Record<string, Json>;
  const properties: Record<string, unknown> = {};
  for (const part of [json, ...((json.allOf as Json[] | undefined) ?? [])]) Object.assign(properties, part.properties ?? {});
  fields = { shownOnce: [], sealed: [] };
  for (const [name, schema] of Object.entries(properties)) {
    const marks = marksIn(schema, defs, new Set());
    if (marks.has('shown_once')) fields.shownOnce.push(name);
    else if (marks.has('sealed')) fields.sealed.push(name);
  }
  derived.set(response, fields);
  return fields;
}

function marksIn(node: unknown, defs: Record<string, Json>, seen: Set<string>, out = new Set<unknown>()): Set<unknown> {
  if (Array.isArray(node)) node.forEach((n) => marksIn(n, defs, seen, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === SECRET_MARK) out.add(v);
      else if (k === '$ref' && typeof v === 'string') {
        const name = v.replace('#/$defs/', '');
        if (seen.has(name)) continue;
        seen.add(name);
        marksIn(defs[name], defs, seen, out);
      } else marksIn(v, defs, seen, out);
    }
  }
  return out;
}

/** `place` names the record (organisation, credential, key): a sealed value opens only there. */
export function toRecord(body: unknown, fields: SecretFields, place: string): unknown {
  if (!isObject(body)) return body;
  const out: Json = { ...body };
  for (const f of fields.shownOnce) if (f in out) out[f] = null;
  for (const f of fields.sealed) if (f in out) out[f] = sealSecret(JSON.stringify(out[f]), `${place}:${f}`);
  return out;
}

/** The replay of a stored body: sealed fields opened again. */
export function fromRecord(body: unknown, fields: SecretFields, place: string): unknown {
  if (!isObject(body)) return body;
  const out: Json = { ...body };
  for (const f of fields.sealed) {
    const stored = out[f];
    if (typeof stored !== 'string') continue;
    const plain = openSecret(stored, `${place}:${f}`);
    // A value that was not sealed (stored before sealing) opens as itself.
    out[f] = plain === stored ? stored : JSON.parse(plain);
  }
  return out;
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
