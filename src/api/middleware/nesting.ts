// The shape of a JSON body is bounded before it is parsed (docs/security.md "Bounded input"):
// V8's JSON.parse does not overflow, but 1 MiB of `[[[[` costs it hundreds of milliseconds of
// the event loop, and every later walk of the body (strict input, zod, the idempotency
// fingerprint) would have to be written against such depth; an object of 100,000 members is
// parsed, then enumerated by each of them, at several times the cost of the same bytes in small
// objects. One linear pass over the bytes, with no allocation, refuses both first.
import { AppError, invalid } from '../../domain/errors';

export const MAX_NESTING = 64;
/** No operation takes an object of more than a few dozen fields; free-form maps stay far below. */
export const MAX_MEMBERS = 1000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

export const tooDeep = (attribute: string | undefined) => invalid(attribute || 'body', `JSON nesting deeper than ${MAX_NESTING} levels`);
export const tooWide = (attribute: string | undefined) => invalid(attribute || 'body', `JSON object with more than ${MAX_MEMBERS} members`);

/** `verify` hook of the JSON body parser: runs on the raw body before JSON.parse. */
export function refuseUnboundedJson(_req: unknown, _res: unknown, body: Buffer, encoding: string | null): void {
  assertJsonShape(isUtf8(encoding) ? body : Buffer.from(decode(body, encoding ?? 'utf-8')));
}

/**
 * Throws 400 naming the path where `json` (UTF-8) opens its (MAX_NESTING + 1)th level, or of
 * an object with more than MAX_MEMBERS members.
 */
export function assertJsonShape(json: Uint8Array): void {
  let depth = 0;
  /** Per level: the commas seen in that object, or -1 in an array. */
  const commas = new Int32Array(MAX_NESTING + 1);
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === QUOTE) i = endOfString(json, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_NESTING) throw tooDeep(pathAt(json, i).join('.'));
      if (depth > 0) commas[depth] = c === OPEN_OBJECT ? 0 : -1;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
    else if (c === COMMA && depth > 0 && commas[depth] >= 0 && ++commas[depth] === MAX_MEMBERS) {
      throw tooWide(pathAt(json, i).slice(0, -1).join('.'));
    }
  }
  // Malformed text (unbalanced, unterminated) is JSON.parse's to refuse.
}

/** Index of the quote closing the string opened at `open` (or the end of the text). */
function endOfString(json: Uint8Array, open: number): number {
  let at = open;
  for (;;) {
    at = json.indexOf(QUOTE, at + 1);
    if (at < 0) return json.length;
    let backslashes = 0;
    while (json[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

/**
 * The steps of the path (`a.0.b`) to the value at `end`, read again from the start: only on
 * refusal, and never deeper than MAX_NESTING, so the common path allocates nothing.
 */
function pathAt(json: Uint8Array, end: number): (string | number)[] {
  const steps: (string | number)[] = [];
  const inArray: boolean[] = [];
  const wantsKey: boolean[] = [];
  for (let i = 0; i < end; i++) {
    const c = json[i];
    const top = steps.length - 1;
    if (c === QUOTE) {
      const close = endOfString(json, i);
      if (top >= 0 && !inArray[top] && wantsKey[top]) steps[top] = keyText(json.subarray(i, close + 1));
      i = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      steps.push(c === OPEN_ARRAY ? 0 : '');
      inArray.push(c === OPEN_ARRAY);
      wantsKey.push(c === OPEN_OBJECT);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      steps.pop();
      inArray.pop();
      wantsKey.pop();
    } else if (c === COMMA && top >= 0) {
      if (inArray[top]) steps[top] = (steps[top] as number) + 1;
      else wantsKey[top] = true;
    } else if (c === COLON && top >= 0) wantsKey[top] = false;
  }
  return steps;
}

function keyText(quoted: Uint8Array): string {
  let key: string;
  try {
    key = JSON.parse(Buffer.from(quoted).toString('utf8')) as string;
  } catch {
    key = Buffer.from(quoted.subarray(1, -1)).toString('utf8');
  }
  // As strict-input names a key it refuses: no NUL or lone surrogate in an attribute.
  return key.replace(/[\u0000\uD800-\uDFFF]/g, '?');
}

const isUtf8 = (encoding: string | null) => encoding === null || /^utf-?8$/i.test(encoding);

/**
 * RFC 8259 wants UTF-8; the parser also reads UTF-16, which is decoded here for the scan.
 * Charsets TextDecoder does not know (UTF-32, UTF-7) are refused rather than left unscanned.
 */
function decode(body: Buffer, encoding: string): string {
  try {
    return new TextDecoder(encoding, { fatal: false }).decode(body);
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'JSON bodies must be UTF-8 (or UTF-16)');
  }
}
