// Shared by the contact API tests: short calls, error expectations, reference data set-up.
import { api, type ApiResponse } from '../support/api';

export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export function call(key: string, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  return api(method, path, { key, body });
}

export function expectError(res: ApiResponse, status: number, code: string, attribute?: string): void {
  expect({ status: res.status, code: res.body?.code, attribute: res.body?.attribute }).toEqual({ status, code, attribute });
}

let seq = 0;
/** A value no other test of this run uses (codes, names, e-mails). */
export function unique(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${++seq}`;
}

export async function createContact(key: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await call(key, 'POST', '/contacts', { contact_type: 'PERSON', first_name: 'Ada', last_name: 'Lovelace', ...body });
  if (res.status !== 200) throw new Error(`create contact: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function getContact(key: string, idOrCode: string): Promise<Record<string, any>> {
  const res = await call(key, 'GET', `/contacts/${encodeURIComponent(idOrCode)}`);
  if (res.status !== 200) throw new Error(`get contact: ${res.status} ${res.text}`);
  return res.body;
}

/** A reference-data item (category, KYC profile, classification, industry) with its id and code. */
export async function createReference(key: string, path: string, name: string): Promise<{ id: string; code: string; name: string }> {
  const code = unique(name.toUpperCase().replace(/\W+/g, '_'));
  const res = await call(key, 'POST', path, { code, name });
  if (res.status !== 200) throw new Error(`create ${path}: ${res.status} ${res.text}`);
  return { id: res.body.id, code, name };
}

export async function search(key: string, query: Record<string, string | number | boolean>): Promise<ApiResponse> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return call(key, 'GET', `/contacts?${qs}`);
}
