/**
 * Protobuf JSON as Temporal's Go frontend writes and reads it (protojson): lowerCamelCase names,
 * zero values and empty lists/maps omitted, 64-bit integers as strings, enums as names, bytes as
 * base64, Timestamp as RFC 3339, Duration as "1.500s", Any with "@type", and the JSON forms of
 * FieldMask, wrappers and Struct. Works on the protobufjs reflection of @temporalio/proto's
 * descriptor. Input is lenient like grpc-gateway's: unknown fields are ignored, names may be
 * camelCase or snake_case, enums names, numbers or Temporal's short form ("Running").
 */
import Long from 'long';
import { protoRoot } from '../grpc/service';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Bad request JSON or query parameters: answered as INVALID_ARGUMENT. */
export class JsonError extends Error {}

// Structural views of protobufjs reflection objects (@temporalio/proto ships its own protobufjs).
export interface FieldLike {
  name: string;
  type: string;
  repeated: boolean;
  map: boolean;
  partOf: object | null;
  protoName?: string;
  resolvedType: TypeLike | EnumLike | null;
  resolve(): FieldLike;
}
export interface TypeLike {
  name: string;
  fullName: string;
  fieldsArray: FieldLike[];
  fromObject(o: object): object;
  encode(m: object): { finish(): Uint8Array };
  decode(b: Uint8Array): object;
}
interface EnumLike {
  values: Record<string, number>;
  valuesById: Record<number, string>;
}
type Obj = Record<string, unknown>;

const isEnum = (t: unknown): t is EnumLike => !!t && typeof t === 'object' && 'valuesById' in t;
const resolved = (f: FieldLike): TypeLike | EnumLike | null => f.resolve().resolvedType;
const camel = (s: string): string => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const jsonName = (f: FieldLike): string => camel(f.protoName ?? f.name);
const LONGS = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);
const INTS = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);

/** Decodes, then writes JSON: the one path for responses and error details. */
export function bytesToJson(type: TypeLike, bytes: Uint8Array): Json {
  return toJson(type, type.decode(bytes));
}

/** A decoded protobufjs message as protojson. */
export function toJson(type: TypeLike, msg: object): Json {
  const wkt = WKT[type.fullName];
  if (wkt) return wkt.out(msg as Obj, type);
  const m = msg as Obj;
  const out: Record<string, Json> = {};
  for (const f of type.fieldsArray) {
    const v = m[f.name];
    const rt = resolved(f);
    if (f.map) {
      const entries = v ? Object.entries(v as Obj) : [];
      if (entries.length) out[jsonName(f)] = Object.fromEntries(entries.map(([k, x]) => [k, valueToJson(f, rt, x)]));
    } else if (f.repeated) {
      if ((v as unknown[] | undefined)?.length) out[jsonName(f)] = (v as unknown[]).map((x) => valueToJson(f, rt, x));
    } else if (v !== null && v !== undefined) {
      // A oneof member is written whenever it is set, even to its zero value.
      const present = f.partOf ? Object.prototype.hasOwnProperty.call(m, f.name) : !isZero(rt, v);
      if (present) out[jsonName(f)] = valueToJson(f, rt, v);
    }
  }
  return out;
}

function isZero(rt: TypeLike | EnumLike | null, v: unknown): boolean {
  if (rt && !isEnum(rt)) return false;
  if (typeof v === 'number') return v === 0 && 1 / v > 0;
  // Strings, and bytes (a Buffer, or protobufjs' empty-array default on the prototype).
  if (typeof v === 'string' || ArrayBuffer.isView(v) || Array.isArray(v)) return (v as ArrayLike<unknown>).length === 0;
  if (typeof v === 'boolean') return !v;
  return Long.isLong(v) && (v as Long).isZero();
}

function valueToJson(f: FieldLike, rt: TypeLike | EnumLike | null, v: unknown): Json {
  if (isEnum(rt)) return rt.valuesById[v as number] ?? (v as number);
  if (rt) return toJson(rt, v as object);
  return scalarToJson(f.type, v);
}

function scalarToJson(type: string, v: unknown): Json {
  if (LONGS.has(type)) return typeof v === 'number' ? String(v) : Long.fromValue(v as Long).toString();
  if (type === 'bytes') return Buffer.from(v as Uint8Array).toString('base64');
  if (type === 'double' || type === 'float') {
    const n = v as number;
    if (Number.isNaN(n)) return 'NaN';
    if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
    return type === 'float' ? shortestFloat32(n) : n;
  }
  return v as Json;
}

/** Go prints a float32 with the fewest digits that read back as the same float32. */
function shortestFloat32(n: number): number {
  for (let p = 1; p < 9; p++) {
    const c = Number(n.toPrecision(p));
    if (Math.fround(c) === n) return c;
  }
  return n;
}

/** Request JSON → the plain object protobufjs' fromObject takes (WKT and enums converted). */
export function fromJson(type: TypeLike, json: unknown, path = ''): Obj {
  const wkt = WKT[type.fullName];
  if (wkt) return wkt.in(json, path, type);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new JsonError(`${path || type.name}: expected a JSON object`);
  const out: Obj = {};
  for (const [k, v] of Object.entries(json)) {
    const f = fieldByName(type, k);
    if (!f) continue;
    const rt = resolved(f);
    // null means "not set", except for google.protobuf.Value where it is a value.
    if (v === null && !(rt && !isEnum(rt) && rt.fullName === '.google.protobuf.Value')) continue;
    const at = path ? `${path}.${k}` : k;
    if (f.map) {
      if (typeof v !== 'object' || Array.isArray(v)) throw new JsonError(`${at}: expected a JSON object`);
      out[f.name] = Object.fromEntries(Object.entries(v as Obj).map(([mk, mv]) => [mk, valueFromJson(f, rt, mv, `${at}.${mk}`)]));
    } else if (f.repeated) {
      if (!Array.isArray(v)) throw new JsonError(`${at}: expected a JSON array`);
      out[f.name] = v.map((x, i) => valueFromJson(f, rt, x, `${at}[${i}]`));
    } else {
      out[f.name] = valueFromJson(f, rt, v, at);
    }
  }
  return out;
}

const byName = new WeakMap<TypeLike, Map<string, FieldLike>>();
export function fieldByName(type: TypeLike, name: string): FieldLike | undefined {
  let names = byName.get(type);
  if (!names) {
    names = new Map();
    for (const f of type.fieldsArray) for (const n of [f.name, f.protoName ?? f.name, jsonName(f)]) names.set(n, f);
    byName.set(type, names);
  }
  return names.get(name);
}

function valueFromJson(f: FieldLike, rt: TypeLike | EnumLike | null, v: unknown, path: string): unknown {
  if (isEnum(rt)) return enumFromJson(rt, v, path);
  if (rt) return fromJson(rt, v, path);
  return scalarFromJson(f.type, v, path);
}

function enumFromJson(e: EnumLike, v: unknown, path: string): number {
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  if (typeof v === 'string') {
    if (v in e.values) return e.values[v];
    if (/^-?\d+$/.test(v)) return Number(v);
    // Temporal's short form: "Running" for WORKFLOW_EXECUTION_STATUS_RUNNING.
    const prefix = (e.valuesById[0] ?? '').replace(/UNSPECIFIED$/, '');
    const long = prefix + snake(v).replace(/^_/, '').toUpperCase();
    if (long in e.values) return e.values[long];
  }
  throw new JsonError(`${path}: invalid enum value ${JSON.stringify(v)}`);
}

function scalarFromJson(type: string, v: unknown, path: string): unknown {
  const bad = (): JsonError => new JsonError(`${path}: invalid ${type} value ${JSON.stringify(v)}`);
  if (LONGS.has(type) || INTS.has(type)) {
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v : undefined;
    if (s === undefined || !/^-?\d+$/.test(s) || (type.startsWith('u') || type.startsWith('fixed')) && s.startsWith('-')) throw bad();
    if (INTS.has(type)) {
      const n = Number(s);
      if (n < -2147483648 || n > 4294967295) throw bad();
      return n;
    }
    return s; // fromObject makes the Long
  }
  if (type === 'double' || type === 'float') {
    if (typeof v === 'number') return v;
    if (v === 'NaN') return NaN;
    if (v === 'Infinity') return Infinity;
    if (v === '-Infinity') return -Infinity;
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
    throw bad();
  }
  if (type === 'bool') {
    if (typeof v !== 'boolean') throw bad();
    return v;
  }
  if (type === 'bytes') {
    if (typeof v !== 'string' || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(v)) throw bad();
    return Buffer.from(v, 'base64');
  }
  if (typeof v !== 'string') throw bad();
  return v;
}

/**
 * One query parameter (`execution.runId=...`, repeated keys for lists) set on a request object,
 * as grpc-gateway does: unknown names are ignored, leaves are scalars, enums or the well-known
 * types that have a string form.
 */
export function setParam(type: TypeLike, target: Obj, key: string, values: string[]): void {
  const parts = key.split('.');
  let t = type;
  let obj = target;
  for (let i = 0; i < parts.length; i++) {
    const f = fieldByName(t, parts[i]);
    if (!f || f.map) return;
    const rt = resolved(f);
    const last = i === parts.length - 1;
    if (!last) {
      if (!rt || isEnum(rt) || f.repeated || WKT[rt.fullName]) throw new JsonError(`${key}: ${parts[i]} is not a message field`);
      obj = (obj[f.name] ??= {}) as Obj;
      t = rt;
      continue;
    }
    if (!f.repeated && values.length > 1) throw new JsonError(`${key}: too many values`);
    const one = (s: string): unknown => {
      if (isEnum(rt)) return enumFromJson(rt, s, key);
      if (rt) {
        if (!WKT[rt.fullName]?.fromString) throw new JsonError(`${key}: a ${rt.name} cannot be given as a query parameter`);
        return fromJson(rt, WKT[rt.fullName].fromString!(s, rt), key);
      }
      return paramScalar(f.type, s, key);
    };
    obj[f.name] = f.repeated ? values.map(one) : one(values[0]);
  }
}

function paramScalar(type: string, s: string, key: string): unknown {
  if (type === 'string') return s;
  if (type === 'bool') {
    if (/^(1|t|T|TRUE|true|True)$/.test(s)) return true;
    if (/^(0|f|F|FALSE|false|False)$/.test(s)) return false;
    throw new JsonError(`${key}: invalid bool value "${s}"`);
  }
  return scalarFromJson(type, s, key);
}

// ------------------------------------------------------------------ well-known types

interface Wkt {
  out(m: Obj, type: TypeLike): Json;
  in(json: unknown, path: string, type: TypeLike): Obj;
  /** How a query parameter string becomes this type's JSON (types with a string form only). */
  fromString?(s: string, type: TypeLike): unknown;
}

const int = (v: unknown): number => (v === null || v === undefined ? 0 : typeof v === 'number' ? v : Long.fromValue(v as Long).toNumber());

/** Go writes 0, 3, 6 or 9 fractional digits, as few as the value needs. */
function fraction(nanos: number): string {
  if (nanos === 0) return '';
  const digits = String(nanos).padStart(9, '0');
  return `.${nanos % 1e6 === 0 ? digits.slice(0, 3) : nanos % 1e3 === 0 ? digits.slice(0, 6) : digits}`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const DURATION = /^(-)?(\d+)(?:\.(\d{1,9}))?s$/;

const wrapper = (scalar: string): Wkt => ({
  out: (m) => scalarToJson(scalar, m.value), // decoded: the default sits on the prototype
  in: (json, path) => ({ value: scalarFromJson(scalar, json, path) }),
  fromString: (s) => (scalar === 'bool' ? paramScalar('bool', s, '') : scalar === 'string' || scalar === 'bytes' || LONGS.has(scalar) ? s : Number(s)),
});

const lookup = (name: string): TypeLike => protoRoot.lookupType(name) as unknown as TypeLike;

const WKT: Record<string, Wkt> = {
  '.google.protobuf.Timestamp': {
    out: (m) => `${new Date(int(m.seconds) * 1000).toISOString().slice(0, 19)}${fraction(int(m.nanos))}Z`,
    in: (json, path) => {
      const p = typeof json === 'string' ? RFC3339.exec(json) : null;
      if (!p) throw new JsonError(`${path}: invalid RFC 3339 timestamp ${JSON.stringify(json)}`);
      const offset = p[9] ? (p[9] === '-' ? -1 : 1) * (Number(p[10]) * 60 + Number(p[11])) * 60 : 0;
      const seconds = Date.UTC(+p[1], +p[2] - 1, +p[3], +p[4], +p[5], +p[6]) / 1000 - offset;
      return { seconds: String(seconds), nanos: Number((p[7] ?? '').padEnd(9, '0')) };
    },
    fromString: (s) => s,
  },
  '.google.protobuf.Duration': {
    out: (m) => {
      const s = int(m.seconds);
      const n = int(m.nanos);
      return `${s < 0 || n < 0 ? '-' : ''}${Math.abs(s)}${fraction(Math.abs(n))}s`;
    },
    in: (json, path) => {
      const p = typeof json === 'string' ? DURATION.exec(json) : null;
      if (!p) throw new JsonError(`${path}: invalid duration ${JSON.stringify(json)} (expected e.g. "1.5s")`);
      const sign = p[1] ? -1 : 1;
      return { seconds: String(sign * Number(p[2])), nanos: sign * Number((p[3] ?? '').padEnd(9, '0')) };
    },
    fromString: (s) => s,
  },
  '.google.protobuf.FieldMask': {
    out: (m) => ((m.paths as string[] | undefined) ?? []).map(camel).join(','),
    in: (json, path) => {
      if (typeof json !== 'string') throw new JsonError(`${path}: a field mask is a string`);
      return { paths: json ? json.split(',').map(snake) : [] };
    },
    fromString: (s) => s,
  },
  '.google.protobuf.Any': {
    out: (m) => {
      const url = String(m.type_url ?? '');
      const inner = lookup(url.slice(url.lastIndexOf('/') + 1));
      const json = bytesToJson(inner, (m.value as Uint8Array) ?? new Uint8Array());
      const fields: Record<string, Json> = WKT[inner.fullName] ? { value: json } : (json as Record<string, Json>);
      return { '@type': url, ...fields };
    },
    in: (json, path) => {
      if (!json || typeof json !== 'object' || typeof (json as Obj)['@type'] !== 'string') throw new JsonError(`${path}: an Any needs "@type"`);
      const { '@type': url, ...rest } = json as Obj;
      let inner: TypeLike;
      try {
        inner = lookup((url as string).slice((url as string).lastIndexOf('/') + 1));
      } catch {
        throw new JsonError(`${path}: unknown type ${url as string}`);
      }
      const plain = fromJson(inner, WKT[inner.fullName] ? rest.value : rest, path);
      return { type_url: url, value: inner.encode(inner.fromObject(plain)).finish() };
    },
  },
  '.google.protobuf.Struct': {
    out: (m) => Object.fromEntries(Object.entries((m.fields as Obj) ?? {}).map(([k, v]) => [k, WKT['.google.protobuf.Value'].out(v as Obj, lookup('google.protobuf.Value'))])),
    in: (json, path) => {
      if (!json || typeof json !== 'object' || Array.isArray(json)) throw new JsonError(`${path}: expected a JSON object`);
      return { fields: Object.fromEntries(Object.entries(json).map(([k, v]) => [k, WKT['.google.protobuf.Value'].in(v, `${path}.${k}`, lookup('google.protobuf.Value'))])) };
    },
  },
  '.google.protobuf.ListValue': {
    out: (m) => ((m.values as Obj[]) ?? []).map((v) => WKT['.google.protobuf.Value'].out(v, lookup('google.protobuf.Value'))),
    in: (json, path) => {
      if (!Array.isArray(json)) throw new JsonError(`${path}: expected a JSON array`);
      return { values: json.map((v, i) => WKT['.google.protobuf.Value'].in(v, `${path}[${i}]`, lookup('google.protobuf.Value'))) };
    },
  },
  '.google.protobuf.Value': {
    out: (m) => {
      const has = (k: string): boolean => Object.prototype.hasOwnProperty.call(m, k) && m[k] !== null;
      if (has('numberValue')) return scalarToJson('double', m.numberValue);
      if (has('stringValue')) return m.stringValue as string;
      if (has('boolValue')) return m.boolValue as boolean;
      if (has('structValue')) return WKT['.google.protobuf.Struct'].out(m.structValue as Obj, lookup('google.protobuf.Struct'));
      if (has('listValue')) return WKT['.google.protobuf.ListValue'].out(m.listValue as Obj, lookup('google.protobuf.ListValue'));
      return null;
    },
    in: (json, path) => {
      if (json === null) return { nullValue: 0 };
      if (typeof json === 'number') return { numberValue: json };
      if (typeof json === 'string') return { stringValue: json };
      if (typeof json === 'boolean') return { boolValue: json };
      if (Array.isArray(json)) return { listValue: WKT['.google.protobuf.ListValue'].in(json, path, lookup('google.protobuf.ListValue')) };
      if (typeof json === 'object') return { structValue: WKT['.google.protobuf.Struct'].in(json, path, lookup('google.protobuf.Struct')) };
      throw new JsonError(`${path}: invalid value`);
    },
  },
  '.google.protobuf.DoubleValue': wrapper('double'),
  '.google.protobuf.FloatValue': wrapper('float'),
  '.google.protobuf.Int64Value': wrapper('int64'),
  '.google.protobuf.UInt64Value': wrapper('uint64'),
  '.google.protobuf.Int32Value': wrapper('int32'),
  '.google.protobuf.UInt32Value': wrapper('uint32'),
  '.google.protobuf.BoolValue': wrapper('bool'),
  '.google.protobuf.StringValue': wrapper('string'),
  '.google.protobuf.BytesValue': wrapper('bytes'),
};

/** Request JSON plus query/path values → the decoded request message the handlers expect. */
export function toMessage(type: TypeLike, plain: Obj): object {
  try {
    return type.decode(type.encode(type.fromObject(plain)).finish());
  } catch (e) {
    throw new JsonError(`invalid ${type.name}: ${(e as Error).message}`);
  }
}
