/**
 * Memo and search attribute fields are kept in the run state as base64 protobuf Payloads, so
 * the state stays plain JSON while payloads round-trip byte for byte.
 */
import { api, IPayload } from '../proto';

export function encodeFields(f: { [k: string]: IPayload } | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!f) return out;
  for (const [k, v] of Object.entries(f)) {
    out[k] = Buffer.from(api.common.v1.Payload.encode(v).finish()).toString('base64');
  }
  return out;
}

export function decodeFields(f: Record<string, string>): { [k: string]: IPayload } {
  const out: { [k: string]: IPayload } = {};
  for (const [k, v] of Object.entries(f)) out[k] = api.common.v1.Payload.decode(Buffer.from(v, 'base64'));
  return out;
}

